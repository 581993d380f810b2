/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-changes.h"
#include "dyn-diff.h"

G_BEGIN_DECLS

/*
 * Internals of the staged changes (dyn-changes.h), shared by:
 *   dyn-change.c          DynChange, its inverse, the exact increment, and the
 *                         key and version helpers of items;
 *   dyn-change-request.c  building one guarded request: placeholders, the
 *                         update expression's clauses, guard terms;
 *   dyn-change-plan.c     what one change becomes: its requests, its guard per
 *                         DynGuardMode (with the 4 KB fallbacks) and their
 *                         sentences; the plan types; a planned request's body;
 *   dyn-change-set.c      DynChangeSet: staging, the plan of the whole set
 *                         (one change per item, transactions, tokens), as JSON;
 *   dyn-commit-result.c   DynCommitResult;
 *   dyn-change-commit.c   the commit: the planned requests in turn, conflicts,
 *                         the GetItem of current items.
 * Each file uses only the ones listed before it (change-request uses none), so
 * there is no circle.
 */

/* dyn-change.c ------------------------------------------------------------ */

struct _DynChange
{
  gatomicrefcount  ref_count;
  DynValue        *before;
  DynValue        *after;
};

DynValue   *_dyn_changes_key_of           (const DynKeySchema *keys,
                                           DynValue           *item) G_GNUC_WARN_UNUSED_RESULT;
gboolean    _dyn_changes_is_key_attribute (const DynKeySchema *keys,
                                           const char         *name);
char       *_dyn_changes_key_identity     (const DynKeySchema *keys,
                                           DynValue           *item) G_GNUC_WARN_UNUSED_RESULT;
char       *_dyn_changes_key_display      (const DynKeySchema *keys,
                                           DynValue           *item) G_GNUC_WARN_UNUSED_RESULT;
DynValue   *_dyn_changes_next_version     (const char         *version_attribute,
                                           DynValue           *before,
                                           GError            **error) G_GNUC_WARN_UNUSED_RESULT;
DynValue   *_dyn_changes_version_of       (const char         *version_attribute,
                                           DynValue           *item);  /* borrowed */
DynValue   *_dyn_changes_item_to_put      (const char         *version_attribute,
                                           DynValue           *before,
                                           DynValue           *after,
                                           GError            **error) G_GNUC_WARN_UNUSED_RESULT;

/* dyn-change-request.c ---------------------------------------------------- */

typedef struct
{
  DynRequest *request;
  GHashTable *name_alias;   /* attribute name → "#x" */
  GHashTable *used;         /* every placeholder handed out */
  char       *map_type;     /* the ":type_M" placeholder, once used */
} DynChangesBuilder;

/* The update expression's clauses. */
typedef struct
{
  GString   *set;
  GString   *add;
  GString   *del;
  GPtrArray *removes;   /* DynChangesRemove* */
} DynChangesClauses;

typedef struct
{
  guint  depth;
  char  *text;
} DynChangesRemove;

/* One guard term. */
typedef enum {
  DYN_CHANGES_TERM_EQUAL,
  DYN_CHANGES_TERM_NOT_EXISTS,
  DYN_CHANGES_TERM_EXISTS,
  DYN_CHANGES_TERM_IS_MAP,
  DYN_CHANGES_TERM_SIZE,
} DynChangesTermKind;

void         _dyn_changes_builder_init          (DynChangesBuilder  *b,
                                                 DynOperation        op,
                                                 const char         *table);
void         _dyn_changes_builder_clear         (DynChangesBuilder  *b);
const char  *_dyn_changes_alias_name            (DynChangesBuilder  *b,
                                                 const char         *name);
char        *_dyn_changes_add_value             (DynChangesBuilder  *b,
                                                 const char         *prefix,
                                                 const char         *name,
                                                 DynValue           *value) G_GNUC_WARN_UNUSED_RESULT;
DynExprPath *_dyn_changes_path_prefix           (const DynExprPath  *path,
                                                 guint               n) G_GNUC_WARN_UNUSED_RESULT;
void         _dyn_changes_remove_free           (DynChangesRemove   *r);
void         _dyn_changes_clause_append         (GString            *clause,
                                                 const char         *text);
void         _dyn_changes_write_entry           (DynChangesBuilder  *b,
                                                 DynChangesClauses  *c,
                                                 DynDiffEntry       *entry);
char        *_dyn_changes_clauses_to_expression (DynChangesClauses  *c) G_GNUC_WARN_UNUSED_RESULT;
void         _dyn_changes_guard_append_path     (DynChangesBuilder  *b,
                                                 GString            *guard,
                                                 DynChangesTermKind  kind,
                                                 const DynExprPath  *path,
                                                 DynValue           *value);
void         _dyn_changes_guard_append          (DynChangesBuilder  *b,
                                                 GString            *guard,
                                                 DynChangesTermKind  kind,
                                                 const char         *name,
                                                 DynValue           *value);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DynChangesBuilder, _dyn_changes_builder_clear)

/* dyn-change-plan.c ------------------------------------------------------- */

typedef struct
{
  guint       change;
  DynRequest *request;
} DynChangesAction;

typedef struct
{
  DynChangeKind kind;
  const char   *guard;        /* "values", "version", … or NULL */
  char         *guard_text;   /* the sentence, translated */
  char         *description;
  guint         first_action;
  guint         n_actions;
  int           request;      /* -1 when nothing is sent */
} DynChangesChangePlan;

typedef struct
{
  char   *operation;          /* "TransactWriteItems", "UpdateItem" … */
  guint   first_action;
  guint   n_actions;
  GArray *changes;            /* guint */
  char   *token;              /* borrowed from the set; NULL for a single request */
} DynChangesRequestPlan;

typedef struct
{
  GPtrArray            *actions;   /* DynChangesAction* */
  DynChangesChangePlan *changes;
  guint                 n_changes;
  GPtrArray            *requests;  /* DynChangesRequestPlan* */
} DynChangesPlan;

void      _dyn_changes_action_free       (DynChangesAction      *a);
void      _dyn_changes_request_plan_free (DynChangesRequestPlan *r);
void      _dyn_changes_plan_free         (DynChangesPlan        *plan);
/* Plans change @index of @self into plan->changes[index] and plan->actions. */
gboolean  _dyn_changes_plan_change       (DynChangeSet          *self,
                                          DynChangesPlan        *plan,
                                          guint                  index,
                                          GError               **error);
JsonNode *_dyn_changes_request_params    (DynChangesPlan        *plan,
                                          DynChangesRequestPlan *r) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynChangesPlan, _dyn_changes_plan_free)

/* dyn-change-set.c -------------------------------------------------------- */

struct _DynChangeSet
{
  GObject       parent_instance;

  char         *table;
  DynKeySchema  keys;
  DynTableKeys *index_keys;   /* the indexes whose key types a written item must meet, or NULL */
  char         *version_attribute;
  DynGuardMode  guard_mode;
  gboolean      single_requests;
  guint         max_actions;
  GPtrArray    *changes;      /* DynChange* */
  GPtrArray    *tokens;       /* char*, one per planned transaction */
};

/* The version attribute the plan uses: only in DYN_GUARD_VERSION. */
static inline const char *
_dyn_changes_version_in_use (DynChangeSet *self)
{
  return self->guard_mode == DYN_GUARD_VERSION ? self->version_attribute : NULL;
}

DynChangesPlan *_dyn_changes_build_plan (DynChangeSet  *self,
                                         GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/* dyn-commit-result.c ----------------------------------------------------- */

typedef struct
{
  DynChangeStatus  status;
  DynValue        *current;
  DynValue        *conflict_key;
  gboolean         need_current;   /* fetch with GetItem */
  GError          *error;
  int              request;
} DynChangesOutcome;

typedef struct
{
  char   *operation;
  char   *token;
  GArray *changes;
} DynChangesSentRequest;

struct _DynCommitResult
{
  gatomicrefcount    ref_count;
  DynChangesOutcome *outcomes;
  guint              n_changes;
  GPtrArray         *requests;   /* DynChangesSentRequest* */
  /* What the requests cost. */
  guint              n_sent;
  double             write_units;
  double             read_units;
};

void _dyn_changes_sent_request_free (DynChangesSentRequest *r);
/* Counts one request sent (@response NULL: it failed) and its capacity. */
void _dyn_changes_count_sent        (DynCommitResult       *self,
                                     DynResponse           *response);

G_END_DECLS
