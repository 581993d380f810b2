/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * The design studio: a single-table design written down as a model
 * (entities, relationships, expected sizes, access patterns), drafted into a
 * key plan (table and index keys, where each entity goes, why), example
 * items, and a live check that every access pattern is one Query or GetItem
 * of one page.
 *
 * The model file format is documented in client/design/MODEL.md; NoSQL
 * Workbench model JSON and CloudFormation templates are read wherever a model
 * file is read. Everything here is GLib-only; the requests are built with
 * the expression engine (DynReadRequest), so the plan's expressions, the
 * snippets and what the check sends cannot disagree.
 *
 * The structures are plain and public: the window edits a model in place and
 * drafts again. Strings are UTF-8, owned by the structure; arrays own their
 * elements (free functions set).
 */

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "dyn-client.h"
#include "dyn-expr.h"
#include "dyn-read-request.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Key templates */

/*
 * A key template is literal text with fields in braces:
 *   "WS#{workspaceId}"                 the attribute's value as text
 *   "PROJ#{createdAt}#{projectId}"     several fields
 *   "ORDER#{orderNo:08}"               zero-padded on the left to 8 characters
 *                                      (numbers and strings alike)
 *   "WS#{workspaceId}#{shard}"         the shard number of a sharded key,
 *                                      "01".."10" (two digits at least)
 *   "{year}"                           a whole-value field: the key takes the
 *                                      attribute's type (a numeric key stays N)
 * "{{" and "}}" are literal braces. A template with no field is a constant
 * ("META").
 */
typedef struct _DynDesignTemplate DynDesignTemplate;

DynDesignTemplate *dyn_design_template_parse   (const char *text,
                                                GError    **error) G_GNUC_WARN_UNUSED_RESULT;
void               dyn_design_template_free    (DynDesignTemplate *self);
const char        *dyn_design_template_get_text (const DynDesignTemplate *self);
/* The attribute names of its fields, in order ("shard" is not one). */
GStrv              dyn_design_template_get_fields (const DynDesignTemplate *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean           dyn_design_template_is_constant (const DynDesignTemplate *self);
gboolean           dyn_design_template_has_shard   (const DynDesignTemplate *self);
/* The literal text before the first field ("WS#" of "WS#{workspaceId}"). */
const char        *dyn_design_template_get_prefix  (const DynDesignTemplate *self);
/* The key value for @item (a map holding the fields' attributes); @shard
 * 1-based, 0 when the template has none. Error names the missing field. */
DynValue          *dyn_design_template_render  (const DynDesignTemplate *self,
                                                const DynValue    *item,
                                                guint              shard,
                                                guint              n_shards,
                                                GError           **error) G_GNUC_WARN_UNUSED_RESULT;
/* Whether @key matches; when it does and @fields is not NULL, fills it with
 * field name → DynValue (S, or N for a whole-value numeric field). */
gboolean           dyn_design_template_match   (const DynDesignTemplate *self,
                                                const DynValue    *key,
                                                GHashTable        *fields);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignTemplate, dyn_design_template_free)

/* ------------------------------------------------------------------------ */
/* The model */

/**
 * DynDesignAttribute:
 * @name: the attribute name
 * @type: DynamoDB's type tag: "S", "N", "B", "BOOL", "NULL", "M", "L", "SS",
 *   "NS" or "BS"
 * @examples: (nullable): example values as text, used by the examples in
 *   turn ("acme", "globex")
 * @values: (nullable): the only values it takes (an enumeration: "ACTIVE",
 *   "ARCHIVED"); examples draw from them
 * @required: every item of the entity has it
 */
typedef struct {
  char     *name;
  char     *type;
  GStrv     examples;
  GStrv     values;
  gboolean  required;
} DynDesignAttribute;

/**
 * DynDesignKey:
 * @attribute: a key attribute of the table or an index ("PK", "GSI1SK")
 * @template: its template for this entity ("WS#{workspaceId}")
 */
typedef struct {
  char *attribute;
  char *template;
} DynDesignKey;

/**
 * DynDesignEntity:
 * @name: "Workspace", "Project"
 * @description: (nullable)
 * @attributes: (element-type DynDesignAttribute)
 * @id: the attributes that identify one item of the entity within its
 *   parent (or the table, without one): ["projectId"]
 * @sort_by: (nullable): the attribute that orders the entity in its
 *   collection (newest first means descending on it); NULL: @id orders it
 * @keys: (element-type DynDesignKey): key templates the model fixes (an
 *   imported or inferred model has them; an empty array lets the draft
 *   decide)
 * @discriminator: (nullable): "_type=Project": an attribute that names the
 *   entity on every item (OneTable, dynamodb-toolbox, ElectroDB …)
 * @count: expected number of items in the table, 0 unknown
 * @item_size: expected average item size in bytes, 0 unknown
 * @reads_per_second, @writes_per_second: expected peak traffic on the
 *   entity, 0 unknown
 * @extra: (nullable): members of the source format that the model does not
 *   hold (a Workbench facet's DataAccess …), kept for export
 */
typedef struct {
  char       *name;
  char       *description;
  GPtrArray  *attributes;
  GStrv       id;
  char       *sort_by;
  GPtrArray  *keys;
  char       *discriminator;
  guint64     count;
  guint       item_size;
  double      reads_per_second;
  double      writes_per_second;
  JsonNode   *extra;
} DynDesignEntity;

typedef enum {
  DYN_DESIGN_ONE_TO_MANY,     /* containment: @parent has many @child */
  DYN_DESIGN_MANY_TO_MANY,    /* @parent ↔ @child through @edge items */
} DynDesignRelationshipKind;

/**
 * DynDesignRelationship:
 * @kind: 1:n containment or n:m
 * @parent: the containing entity (1:n), the first side (n:m)
 * @child: the contained entity (1:n), the second side (n:m)
 * @edge: (nullable): n:m only: the entity of the edge items (an
 *   "Enrollment" with grade and enrolledOn); NULL: the draft adds one named
 *   "<Parent><Child>"
 * @items_per_parent: expected children per parent (for n:m: edges per side,
 *   the larger), 0 unknown
 */
typedef struct {
  DynDesignRelationshipKind kind;
  char    *parent;
  char    *child;
  char    *edge;
  guint64  items_per_parent;
} DynDesignRelationship;

typedef enum {
  DYN_DESIGN_GET,                /* one item by its full key: GetItem */
  DYN_DESIGN_LIST,               /* the items of a collection, ascending */
  DYN_DESIGN_LIST_NEWEST_FIRST,  /* descending on the sort key */
  DYN_DESIGN_COUNT,              /* Select=COUNT */
} DynDesignOperation;

/**
 * DynDesignPattern:
 * @name: "Projects of a workspace, newest first"
 * @entity: the entity it returns (for an n:m roster: the edge entity)
 * @operation: get, list, list-newest-first or count
 * @parameters: the attributes the caller gives ("workspaceId"); a get gives
 *   the entity's parent id and @id
 * @range_attribute: (nullable): a condition on a sort-key range of this
 *   attribute ("createdAt")
 * @range_op: (nullable): with @range_attribute: "=", "<", "<=", ">", ">=",
 *   "between" or "begins_with"
 * @across_parents: the read is over every parent (all ACTIVE projects, by
 *   the @parameters that are not a parent's id): served by an index
 * @reads_per_second: expected peak rate, 0 unknown
 */
typedef struct {
  char              *name;
  char              *entity;
  DynDesignOperation operation;
  GStrv              parameters;
  char              *range_attribute;
  char              *range_op;
  gboolean           across_parents;
  double             reads_per_second;
} DynDesignPattern;

/**
 * DynDesignIndex:
 * @name: "GSI1"
 * @local: a local secondary index (else global)
 * @partition_key, @partition_type: key attribute and type tag ("S" "N" "B")
 * @sort_key, @sort_type: (nullable)
 * @projection: "ALL", "KEYS_ONLY" or "INCLUDE"
 * @non_key_attributes: (nullable): INCLUDE's attributes
 */
typedef struct {
  char     *name;
  gboolean  local;
  char     *partition_key;
  char     *partition_type;
  char     *sort_key;
  char     *sort_type;
  char     *projection;
  GStrv     non_key_attributes;
} DynDesignIndex;

/**
 * DynDesignTable:
 * @name: the table name
 * @partition_key, @partition_type, @sort_key, @sort_type: the primary key
 *   (@sort_key NULL: hash-only)
 * @indexes: (element-type DynDesignIndex)
 * @billing_mode: "PAY_PER_REQUEST" or "PROVISIONED"
 * @read_capacity, @write_capacity: PROVISIONED only
 * @ttl_attribute: (nullable)
 * @fixed: the table exists or was imported (Workbench, CloudFormation,
 *   inferred): the draft keeps its keys and indexes and reports the patterns
 *   they cannot serve. FALSE (a model written by hand that only names the
 *   keys, "fixed": false or absent in the file): the draft keeps the names
 *   and adds the indexes the patterns need.
 */
typedef struct {
  char      *name;
  char      *partition_key;
  char      *partition_type;
  char      *sort_key;
  char      *sort_type;
  GPtrArray *indexes;
  char      *billing_mode;
  guint64    read_capacity;
  guint64    write_capacity;
  char      *ttl_attribute;
  gboolean   fixed;
} DynDesignTable;

typedef enum {
  DYN_DESIGN_FORMAT_DYNOSCOPE,
  DYN_DESIGN_FORMAT_WORKBENCH,
  DYN_DESIGN_FORMAT_CLOUDFORMATION,
  DYN_DESIGN_FORMAT_CREATE_TABLE,    /* export only: the create-table input */
} DynDesignFormat;

/**
 * DynDesignModel:
 * @name: the model's name (Workbench's ModelName)
 * @description: (nullable)
 * @table: (nullable): the table as the model gives it (imported, inferred,
 *   or written in the file; see DynDesignTable.fixed); NULL: the draft
 *   designs it with generic names (PK, SK, GSI1PK …).
 * @entities: (element-type DynDesignEntity)
 * @relationships: (element-type DynDesignRelationship)
 * @patterns: (element-type DynDesignPattern)
 * @items: (element-type DynValue): example items the source holds
 *   (Workbench TableData), maps in DynamoDB's model; kept on export and
 *   used by the check instead of generated ones when not empty
 * @examples_per_parent: children per parent in generated examples (default 3)
 * @source_format: what the model was read from
 * @extra: (nullable): source members the model does not hold
 *   (Workbench ModelMetadata, other tables of a multi-table model …)
 */
typedef struct {
  char           *name;
  char           *description;
  DynDesignTable *table;
  GPtrArray      *entities;
  GPtrArray      *relationships;
  GPtrArray      *patterns;
  GPtrArray      *items;
  guint           examples_per_parent;
  DynDesignFormat source_format;
  JsonNode       *extra;
} DynDesignModel;

DynDesignModel     *dyn_design_model_new        (const char *name) G_GNUC_WARN_UNUSED_RESULT;
DynDesignModel     *dyn_design_model_copy       (const DynDesignModel *self) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_design_model_free       (DynDesignModel *self);
DynDesignEntity    *dyn_design_model_find_entity (const DynDesignModel *self, const char *name);

DynDesignEntity    *dyn_design_entity_new       (const char *name) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_design_entity_free      (DynDesignEntity *self);
DynDesignAttribute *dyn_design_attribute_new    (const char *name, const char *type) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_design_attribute_free   (DynDesignAttribute *self);
DynDesignAttribute *dyn_design_entity_find_attribute (const DynDesignEntity *self, const char *name);
const char         *dyn_design_entity_get_key   (const DynDesignEntity *self, const char *attribute);
void                dyn_design_entity_set_key   (DynDesignEntity *self, const char *attribute,
                                                 const char *template);
void                dyn_design_key_free         (DynDesignKey *self);
void                dyn_design_relationship_free (DynDesignRelationship *self);
DynDesignPattern   *dyn_design_pattern_new      (const char *name, const char *entity,
                                                 DynDesignOperation operation) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_design_pattern_free     (DynDesignPattern *self);
DynDesignTable     *dyn_design_table_new        (const char *name) G_GNUC_WARN_UNUSED_RESULT;
DynDesignTable     *dyn_design_table_copy       (const DynDesignTable *self) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_design_table_free       (DynDesignTable *self);
void                dyn_design_index_free       (DynDesignIndex *self);
/* The table's keys and indexes as the expression engine takes them. */
DynTableKeys       *dyn_design_table_to_keys    (const DynDesignTable *self) G_GNUC_WARN_UNUSED_RESULT;

const char         *dyn_design_operation_to_string   (DynDesignOperation op);
gboolean            dyn_design_operation_from_string (const char *text, DynDesignOperation *op);

/*
 * Reading and writing. dyn_design_model_load() detects the format: a
 * Dynoscope model ("format": "dynoscope-design"), a NoSQL Workbench model
 * (ModelName + DataModel), a CloudFormation template (Resources with an
 * AWS::DynamoDB::Table) or a bare AWS::DynamoDB::Table resource, or the
 * create-table input (TableName + KeySchema). @table picks one table of a
 * multi-table source (NULL: the only or first one; the others are kept in
 * @extra). A Workbench or CloudFormation model gets starter access patterns
 * (dyn_design_model_add_starter_patterns()): those formats hold none. Errors name the JSON path and what was wrong
 * ("DataModel[0].KeyAttributes.PartitionKey: no AttributeName").
 */
DynDesignModel     *dyn_design_model_load       (JsonNode    *root,
                                                 const char  *table,
                                                 GError     **error) G_GNUC_WARN_UNUSED_RESULT;
DynDesignModel     *dyn_design_model_load_file  (const char  *path,
                                                 const char  *table,
                                                 GError     **error) G_GNUC_WARN_UNUSED_RESULT;
/* Checks the model's references (entities of patterns and relationships,
 * attributes of templates, ids, parameters) and templates; the error names
 * the first problem ("patterns[2].entity: no entity “Projet”"). */
gboolean            dyn_design_model_validate   (const DynDesignModel *self,
                                                 GError              **error);
/* When the model has no access patterns (a NoSQL Workbench model, a
 * CloudFormation template): starter patterns from the keys, as inference
 * makes them — a get per entity, a list per entity in its partition when its
 * sort key varies, a list per index the entity is in — so that the check has
 * something to run; a model without entities gets one named after the table
 * whose keys are the table's own attributes. Returns how many were added. */
guint               dyn_design_model_add_starter_patterns (DynDesignModel *self);
/* The Dynoscope model file (client/design/MODEL.md). */
JsonNode           *dyn_design_model_to_json    (const DynDesignModel *self) G_GNUC_WARN_UNUSED_RESULT;
gboolean            dyn_design_model_save_file  (const DynDesignModel *self,
                                                 const char           *path,
                                                 GError              **error);

typedef struct _DynDesignPlan DynDesignPlan;

/*
 * Export of a model through its plan (the table, each entity's keys as a
 * Workbench facet, the examples as TableData): NoSQL Workbench model JSON
 * that opens in NoSQL Workbench, a CloudFormation template with one
 * AWS::DynamoDB::Table, or the `aws dynamodb create-table --cli-input-json`
 * input. A model read from Workbench exports back with what it held
 * (metadata, facets, data) unchanged.
 */
JsonNode           *dyn_design_export           (const DynDesignModel *model,
                                                 const DynDesignPlan  *plan,
                                                 DynDesignFormat       format,
                                                 GError              **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean            dyn_design_format_from_string (const char *text, DynDesignFormat *format);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignModel, dyn_design_model_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignEntity, dyn_design_entity_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignPattern, dyn_design_pattern_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignTable, dyn_design_table_free)

/* ------------------------------------------------------------------------ */
/* The draft */

/**
 * DynDesignPlacement:
 * @entity: the entity
 * @keys: (element-type DynDesignKey): its key templates on the table and on
 *   each index it is in, table keys first
 * @shards: > 1: its partition key is sharded ({shard} 01..@shards) and its
 *   collection reads fan out over every shard
 */
typedef struct {
  char      *entity;
  GPtrArray *keys;
  guint      shards;
} DynDesignPlacement;

/**
 * DynDesignDecision:
 * @subject: what it is about: an entity, an index, the table or a pattern
 * @pattern: (nullable): the access pattern it serves
 * @text: one sentence of why (translated)
 * @warning: a problem the user should act on (a Scan, a hot partition …)
 */
typedef struct {
  char     *subject;
  char     *pattern;
  char     *text;
  gboolean  warning;
} DynDesignDecision;

/**
 * DynDesignRequest:
 * @pattern: the access pattern's name
 * @operation: DYN_OP_GET_ITEM, DYN_OP_QUERY or DYN_OP_SCAN (a pattern the
 *   plan cannot serve otherwise)
 * @index: (nullable): the index read
 * @request: (nullable): the read, built with example parameter values (the
 *   first example parent's); its key condition, placeholder maps, body and
 *   snippets are what the plan shows and the check sends. NULL only when the
 *   pattern is invalid (@reason says why).
 * @parameters: (element-type utf8): the key condition's value placeholders
 *   that stand for the pattern's parameters (":er" → "workspaceId"), so a
 *   user sees which value is theirs to give
 * @shards: > 1: the read fans out over this many shards
 * @reason: (nullable): why it is a Scan, or invalid (translated)
 */
typedef struct {
  char              *pattern;
  DynOperation       operation;
  char              *index;
  DynReadRequest    *request;
  GHashTable        *parameters;
  guint              shards;
  char              *reason;
} DynDesignRequest;

/*
 * Drafts the key plan. With a model that fixes no table: table keys PK/SK
 * (generic, overloaded: names from the model's "table" when it has one),
 * each entity placed so that its list patterns are one Query (a child's
 * partition key is its parent's), n:m edges with an inverted GSI for the
 * other side, a GSI per across-parents attribute, sharded keys for entities
 * whose expected traffic or collection size makes a hot partition. With a
 * fixed table: the entities' keys as the model gives them, each pattern
 * mapped to the table or index that serves it, or a Scan with its reason.
 * Every decision comes with its sentence. An error only for a model that
 * does not validate.
 */
DynDesignPlan      *dyn_design_draft            (const DynDesignModel *model,
                                                 GError              **error) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_design_plan_free        (DynDesignPlan *self);
/* Borrowed. */
const DynDesignTable *dyn_design_plan_get_table      (const DynDesignPlan *self);
GPtrArray          *dyn_design_plan_get_placements   (const DynDesignPlan *self);  /* DynDesignPlacement */
GPtrArray          *dyn_design_plan_get_decisions    (const DynDesignPlan *self);  /* DynDesignDecision */
GPtrArray          *dyn_design_plan_get_requests     (const DynDesignPlan *self);  /* DynDesignRequest, in pattern order */
const DynDesignPlacement *dyn_design_plan_find_placement (const DynDesignPlan *self, const char *entity);
/* The entity an item belongs to under the plan (its keys match the
 * entity's templates, or its discriminator), or NULL. */
const char         *dyn_design_plan_classify         (const DynDesignPlan *self,
                                                      const DynValue      *item);

/*
 * Example items generated from the templates and attribute types: for each
 * top-level entity a few items, for each child @per_parent items under each
 * parent (n:m: edges between examples of both sides), realistic values
 * (names, ids, ISO dates in order so that sort keys sort as intended,
 * enumerations, numbers), deterministic for a @seed. Items carry every key
 * attribute of the plan. Sorted as DynamoDB stores them: by partition key,
 * then sort key (numbers by value, strings and binary by bytes), so that the
 * array reads as the stacked item collections. The model's own @items are
 * returned instead when it has them.
 */
GPtrArray          *dyn_design_examples         (const DynDesignModel *model,
                                                 const DynDesignPlan  *plan,
                                                 guint                 per_parent,
                                                 guint32               seed) G_GNUC_WARN_UNUSED_RESULT;

/* The plan and the examples as JSON: {"table": create-table input,
 * "placements": […], "decisions": […], "patterns": [{"name", "operation",
 * "index", "request": body, "parameters", "shards", "reason"}],
 * "examples": [items in DynamoDB JSON]}. What `design draft` prints. */
JsonNode           *dyn_design_plan_to_json     (const DynDesignPlan *self,
                                                 GPtrArray           *examples) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignPlan, dyn_design_plan_free)

/* ------------------------------------------------------------------------ */
/* Inferring a model from a table */

/*
 * From DescribeTable's Table object and a sample of items: entities from a
 * discriminator attribute or key prefixes (DynEntityDetector's rules), key
 * templates from the values ("WS#{id}", "PROJ#{…}"), per-entity attributes
 * with their observed types (required when on every item), the table and its
 * indexes from DescribeTable, 1:n relationships where two entities share
 * partition keys, and a get and a list pattern per entity as a start.
 */
DynDesignModel     *dyn_design_infer            (JsonObject *describe_table,
                                                 GPtrArray  *items,
                                                 GError    **error) G_GNUC_WARN_UNUSED_RESULT;
/* Reads DescribeTable and a sample (Scan pages up to @max_items, 1000 if
 * 0), then dyn_design_infer(). */
void                dyn_design_infer_async      (DynClient           *client,
                                                 const char          *table,
                                                 guint                max_items,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
DynDesignModel     *dyn_design_infer_finish     (DynClient     *client,
                                                 GAsyncResult  *result,
                                                 GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------ */
/* The live check */

/**
 * DynDesignCheckOptions:
 * @table: (nullable): an existing table to check against; NULL: a scratch
 *   table created from the plan ("dynoscope-check-<model>-<random>") and
 *   deleted afterwards
 * @write_examples: with @table: write the examples into it too (guarded:
 *   attribute_not_exists on the key; an item already there is reported,
 *   never replaced); a scratch table always gets them
 * @keep_table: do not delete the scratch table (to browse it)
 * @per_parent: examples per parent (0: the model's examples_per_parent)
 * @sample_items: the sample read of an existing table's own data (0: 1000)
 * @seed: for the examples
 */
typedef struct {
  const char *table;
  gboolean    write_examples;
  gboolean    keep_table;
  guint       per_parent;
  guint       sample_items;
  guint32     seed;
} DynDesignCheckOptions;

/**
 * DynDesignCheckResult:
 * @pattern: the access pattern's name
 * @operation: what was sent (a Scan fails)
 * @index: (nullable)
 * @requests, @pages, @read_units, @items: what the read cost and returned
 * @only_entity: every returned item is of the pattern's entity
 * @passed: one GetItem or Query of one page (a sharded read: one per
 *   shard), not empty, only the intended entity
 * @problem: (nullable): why it did not pass (translated)
 */
typedef struct {
  char        *pattern;
  DynOperation operation;
  char        *index;
  guint        requests;
  guint        pages;
  double       read_units;
  guint        items;
  gboolean     only_entity;
  gboolean     passed;
  char        *problem;
} DynDesignCheckResult;

/**
 * DynDesignCheckReport:
 * @table: the table checked
 * @scratch: it was a scratch table (deleted unless kept)
 * @results: (element-type DynDesignCheckResult), in pattern order
 * @items_written: examples written
 * @items_existing: examples not written because an item with the key exists
 * @findings: (element-type DynDesignDecision): for an existing table with
 *   data: items that match no entity, patterns its indexes cannot serve,
 *   collections near the 10 GB LSI limit or far above their siblings
 * @sampled_items, @sample_read_units: the sample read's size and cost
 * @write_units: what writing the examples cost
 * @passed: every result passed (and no finding is a warning)
 */
typedef struct {
  char      *table;
  gboolean   scratch;
  GPtrArray *results;
  guint      items_written;
  guint      items_existing;
  GPtrArray *findings;
  guint64    sampled_items;
  double     sample_read_units;
  double     write_units;
  gboolean   passed;
} DynDesignCheckReport;

/* Progress: one sentence per step ("Creating table …", "Writing 12
 * examples …", "Running “Projects newest first” …"). */
typedef void (*DynDesignProgressFunc) (const char *message,
                                       gpointer    user_data);

void                 dyn_design_check_async    (DynClient                   *client,
                                                const DynDesignModel        *model,
                                                const DynDesignCheckOptions *options,
                                                DynDesignProgressFunc        progress,
                                                gpointer                     progress_data,
                                                GCancellable                *cancellable,
                                                GAsyncReadyCallback          callback,
                                                gpointer                     user_data);
DynDesignCheckReport *dyn_design_check_finish  (DynClient     *client,
                                                GAsyncResult  *result,
                                                GError       **error) G_GNUC_WARN_UNUSED_RESULT;
void                 dyn_design_check_report_free (DynDesignCheckReport *self);
JsonNode            *dyn_design_check_report_to_json (const DynDesignCheckReport *self) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignCheckReport, dyn_design_check_report_free)

G_END_DECLS
