/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-client.h"
#include "dyn-transfer.h"

G_BEGIN_DECLS

/*
 * dynoscope-cli's data and table commands: export, import, count, truncate,
 * create-table and update-table. dyn-cli-transfer.c parses the options (one
 * set for all six) and dispatches; each command's body is in
 * dyn-cli-export.c (export, count), dyn-cli-import.c (import, truncate) and
 * dyn-cli-tables.c (create-table, update-table).
 */

typedef struct
{
  /* global */
  char       *profile;
  char       *region;
  char       *endpoint;
  gboolean    insecure;
  GPtrArray  *args;          /* positional after the command: args->pdata[0] is the table */

  /* export, count */
  char       *index;
  char       *filter;
  char       *key_condition;
  char       *projection;
  char       *format;        /* ddb-json|json|csv|s3 */
  char       *output;
  guint       segments;      /* 0: not given */
  double      max_rcu;

  /* import */
  char       *input;
  gboolean    create;        /* --create: create the table from --pk/--sk/--gsi/--lsi/--billing */
  gboolean    no_overwrite;
  double      max_wcu;
  guint       concurrency;
  gboolean    resume;
  gboolean    restart;
  gboolean    dry_run;
  gboolean    skip_bad;
  gboolean    verify;
  GPtrArray  *csv_types;     /* --csv-type NAME=TYPE, repeatable */

  /* create-table, update-table */
  char       *pk;
  char       *sk;
  GPtrArray  *gsis;          /* --gsi, repeatable */
  GPtrArray  *lsis;          /* --lsi, repeatable */
  char       *billing;       /* on-demand | provisioned:R:W */
  char       *ttl;           /* --ttl ATTR */
  gboolean    no_ttl;        /* update-table --no-ttl: disable TTL */
  char       *table_class;
  gboolean    deletion_protection;
  char       *add_gsi;
  char       *delete_gsi;
  gboolean    wait;          /* wait until ACTIVE (default TRUE; --no-wait) */

  /* truncate, delete */
  char       *confirm;       /* --confirm TABLE: the table's name typed again */
  gboolean    yes;           /* --yes: no question on a terminal */

  gboolean    json;          /* machine-readable result on stdout */
  gboolean    quiet;         /* no progress line */
} DynTransferOptions;

/* `dynoscope-cli COMMAND …` for the commands above (argv[0] is the
 * command); returns the exit status: 0 done, 1 failed, 2 usage, 3 the
 * command ran and found problems (bad lines, items left as they were,
 * verify differences). */
int       dyn_cli_transfer          (int    argc,
                                     char **argv);
/* Whether @command is one of them. */
gboolean  dyn_cli_transfer_handles  (const char *command);

/* Shared by the bodies. */
GAsyncResult *dyn_cli_wait_for      (GAsyncResult **slot);
void          dyn_cli_store_result_cb (GObject      *source,
                                       GAsyncResult *result,
                                       gpointer      user_data);
/* The progress line on stderr: rewritten in place on a terminal, one line
 * every 5 s otherwise; nothing with --quiet. @user_data is the options. */
void          dyn_cli_progress_cb   (const DynTransferProgress *progress,
                                     gpointer                   user_data);
void          dyn_cli_print_json    (JsonNode *node);

/* The command bodies: TRUE with *status set (0 or 3), or FALSE with @error. */
gboolean  dyn_cli_export            (DynTransferOptions *o, DynClient *client, int *status, GError **error);
gboolean  dyn_cli_count             (DynTransferOptions *o, DynClient *client, int *status, GError **error);
gboolean  dyn_cli_import            (DynTransferOptions *o, DynClient *client, int *status, GError **error);
gboolean  dyn_cli_truncate          (DynTransferOptions *o, DynClient *client, int *status, GError **error);
gboolean  dyn_cli_create_table      (DynTransferOptions *o, DynClient *client, int *status, GError **error);
gboolean  dyn_cli_update_table      (DynTransferOptions *o, DynClient *client, int *status, GError **error);

G_END_DECLS
