/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-saved-queries"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-saved-queries.h"

#define FILE_VERSION 1

/* One connection's queries. */
typedef struct {
  char       *id;
  char       *name;
  char       *profile;
  char       *endpoint;
  char       *region;
  GPtrArray  *saved;    /* DynReadEntry */
  GHashTable *recent;   /* table → GPtrArray of DynReadEntry, the newest first */
} Record;

struct _DynSavedQueries
{
  GObject    parent_instance;

  char      *path;
  GPtrArray *records;
  GBytes    *contents;  /* the file as last read or written; NULL: none */
  GError    *error;     /* the file could not be read */
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynSavedQueries, dyn_saved_queries, G_TYPE_OBJECT)

static guint signals[N_SIGNALS];

static gpointer
copy_entry (gconstpointer entry,
            gpointer      user_data)
{
  return dyn_read_entry_ref ((DynReadEntry *) entry);
}

static GPtrArray *
new_entries (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_read_entry_unref);
}

static Record *
record_new (void)
{
  Record *record = g_new0 (Record, 1);

  record->saved = new_entries ();
  record->recent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  return record;
}

static void
record_free (Record *record)
{
  g_free (record->id);
  g_free (record->name);
  g_free (record->profile);
  g_free (record->endpoint);
  g_free (record->region);
  g_ptr_array_unref (record->saved);
  g_hash_table_unref (record->recent);
  g_free (record);
}

static GPtrArray *
record_recent (Record     *record,
               const char *table,
               gboolean    create)
{
  GPtrArray *list = g_hash_table_lookup (record->recent, table);

  if (list == NULL && create)
    {
      list = new_entries ();
      g_hash_table_insert (record->recent, g_strdup (table), list);
    }
  return list;
}

static void
dyn_saved_queries_finalize (GObject *object)
{
  DynSavedQueries *self = DYN_SAVED_QUERIES (object);

  g_free (self->path);
  g_ptr_array_unref (self->records);
  g_clear_pointer (&self->contents, g_bytes_unref);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (dyn_saved_queries_parent_class)->finalize (object);
}

static void
dyn_saved_queries_class_init (DynSavedQueriesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyn_saved_queries_finalize;

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
dyn_saved_queries_init (DynSavedQueries *self)
{
  self->records = g_ptr_array_new_with_free_func ((GDestroyNotify) record_free);
}

DynSavedQueries *
dyn_saved_queries_new (const char *path)
{
  DynSavedQueries *self = g_object_new (DYN_TYPE_SAVED_QUERIES, NULL);

  self->path = path ? g_strdup (path) : g_build_filename (g_get_user_config_dir (), "dynoscope", "queries.json", NULL);
  return self;
}

const char *
dyn_saved_queries_get_path (DynSavedQueries *self)
{
  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), NULL);

  return self->path;
}

const GError *
dyn_saved_queries_get_error (DynSavedQueries *self)
{
  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), NULL);

  return self->error;
}

/* Reading. */

static gboolean
member_string (JsonObject  *obj,
               const char  *where,
               const char  *name,
               char       **out,
               GError     **error)
{
  JsonNode *member = json_object_get_member (obj, name);

  if (member == NULL || JSON_NODE_HOLDS_NULL (member))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, _("%s.%s: must be a string"), where, name);
      return FALSE;
    }
  *out = g_strdup (json_node_get_string (member));
  return TRUE;
}

/* Member @name of @obj as an array: TRUE with *out NULL when it is missing. */
static gboolean
member_array (JsonObject  *obj,
              const char  *where,
              const char  *name,
              JsonArray  **out,
              GError     **error)
{
  JsonNode *member = json_object_get_member (obj, name);

  *out = NULL;
  if (member == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (member))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, _("%s.%s: must be an array"), where, name);
      return FALSE;
    }
  *out = json_node_get_array (member);
  return TRUE;
}

static DynReadEntry *
entry_from_json (JsonNode    *node,
                 const char  *where,
                 GError     **error)
{
  g_autoptr(GError) local = NULL;
  DynReadEntry *entry = dyn_read_entry_from_json (node, where, &local);

  if (entry == NULL)
    g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CONFIG, local->message);
  return entry;
}

static Record *
record_from_json (JsonNode    *node,
                  const char  *where,
                  GError     **error)
{
  Record *record = record_new ();
  JsonObject *obj;
  JsonArray *saved, *recent;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, _("%s: must be an object"), where);
      goto fail;
    }
  obj = json_node_get_object (node);
  if (!member_string (obj, where, "id", &record->id, error) ||
      !member_string (obj, where, "name", &record->name, error) ||
      !member_string (obj, where, "profile", &record->profile, error) ||
      !member_string (obj, where, "endpoint", &record->endpoint, error) ||
      !member_string (obj, where, "region", &record->region, error))
    goto fail;
  if (!member_array (obj, where, "saved", &saved, error) || !member_array (obj, where, "recent", &recent, error))
    goto fail;
  for (guint i = 0; saved != NULL && i < json_array_get_length (saved); i++)
    {
      g_autofree char *inner = g_strdup_printf ("%s.saved[%u]", where, i);
      DynReadEntry *entry = entry_from_json (json_array_get_element (saved, i), inner, error);

      if (entry == NULL)
        goto fail;
      g_ptr_array_add (record->saved, entry);
      if (dyn_read_entry_get_id (entry) == NULL || dyn_read_entry_get_name (entry) == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, _("%s: a saved query needs an id and a name"), inner);
          goto fail;
        }
    }
  for (guint i = 0; recent != NULL && i < json_array_get_length (recent); i++)
    {
      g_autofree char *inner = g_strdup_printf ("%s.recent[%u]", where, i);
      DynReadEntry *entry = entry_from_json (json_array_get_element (recent, i), inner, error);
      GPtrArray *list;

      if (entry == NULL)
        goto fail;
      list = record_recent (record, dyn_read_entry_get_table (entry), TRUE);
      if (list->len < DYN_RECENT_READS_MAX)
        g_ptr_array_add (list, entry);
      else
        dyn_read_entry_unref (entry);
    }
  return record;

fail:
  record_free (record);
  return NULL;
}

static GPtrArray *
parse_file (GBytes  *contents,
            GError **error)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) record_free);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local = NULL;
  gsize len;
  const char *data = g_bytes_get_data (contents, &len);
  JsonObject *obj;
  JsonNode *version;
  JsonArray *connections;

  root = dyn_json_parse (data, len, &local);
  if (root == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CONFIG, local->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CONFIG, _("the file must hold a JSON object"));
      return NULL;
    }
  obj = json_node_get_object (root);
  version = json_object_get_member (obj, "version");
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) || json_node_get_value_type (version) != G_TYPE_INT64)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CONFIG, _("“version” must be a number"));
      return NULL;
    }
  if (json_node_get_int (version) != FILE_VERSION)
    {
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (version));

      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   _("version %s is not known to this Dynoscope (it writes version %d)"), number, FILE_VERSION);
      return NULL;
    }
  if (!member_array (obj, "file", "connections", &connections, error))
    return NULL;
  for (guint i = 0; connections != NULL && i < json_array_get_length (connections); i++)
    {
      g_autofree char *where = g_strdup_printf ("connections[%u]", i);
      Record *record = record_from_json (json_array_get_element (connections, i), where, error);

      if (record == NULL)
        return NULL;
      g_ptr_array_add (records, record);
    }
  return g_steal_pointer (&records);
}

/* Takes @contents (NULL: no file). */
static gboolean
load_contents (DynSavedQueries  *self,
               GBytes           *contents,
               GError          **error)
{
  g_autoptr(GBytes) owned = contents;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) local = NULL;

  if (contents != NULL)
    {
      records = parse_file (contents, &local);
      if (records == NULL)
        {
          g_clear_error (&self->error);
          /* Translators: the first %s is a file name, the second what is wrong with it */
          g_set_error (&self->error, DYN_ERROR, DYN_ERROR_CONFIG,
                       _("The saved queries in %s could not be read: %s. The file is left as it is and nothing "
                         "is saved to it until it is repaired or removed."),
                       self->path, local->message);
          g_clear_pointer (&self->contents, g_bytes_unref);
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CONFIG, self->error->message);
          return FALSE;
        }
    }
  g_clear_error (&self->error);
  g_ptr_array_unref (self->records);
  self->records = records ? g_steal_pointer (&records)
                          : g_ptr_array_new_with_free_func ((GDestroyNotify) record_free);
  g_clear_pointer (&self->contents, g_bytes_unref);
  self->contents = g_steal_pointer (&owned);
  return TRUE;
}

/* The file now: NULL with no error when there is none. */
static gboolean
read_file (DynSavedQueries  *self,
           GBytes          **contents,
           GError          **error)
{
  g_autoptr(GError) local = NULL;
  char *data = NULL;
  gsize len = 0;

  *contents = NULL;
  if (!g_file_get_contents (self->path, &data, &len, &local))
    {
      if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, _("The saved queries in %s could not be read: %s"),
                   self->path, local->message);
      return FALSE;
    }
  *contents = g_bytes_new_take (data, len);
  return TRUE;
}

gboolean
dyn_saved_queries_load (DynSavedQueries  *self,
                        GError          **error)
{
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GError) local = NULL;
  gboolean ok;

  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), FALSE);

  if (!read_file (self, &contents, &local))
    {
      g_clear_error (&self->error);
      self->error = g_error_copy (local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  ok = load_contents (self, g_steal_pointer (&contents), error);
  g_signal_emit (self, signals[CHANGED], 0);
  return ok;
}

/* Before a change: reads the file again when someone else wrote it since. */
static gboolean
refresh (DynSavedQueries  *self,
         GError          **error)
{
  g_autoptr(GBytes) contents = NULL;

  if (!read_file (self, &contents, error))
    return FALSE;
  if (contents == NULL && self->contents == NULL && self->error == NULL)
    return TRUE;
  if (contents != NULL && self->contents != NULL && g_bytes_equal (contents, self->contents))
    return TRUE;
  return load_contents (self, g_steal_pointer (&contents), error);
}

/* Writing. */

static JsonNode *
entries_to_json (GPtrArray *entries)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < entries->len; i++)
    json_array_add_element (array, dyn_read_entry_to_json (entries->pdata[i]));
  json_node_take_array (node, array);
  return node;
}

static void
set_string (JsonObject *obj,
            const char *member,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (obj, member, value);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

static char *
to_text (DynSavedQueries *self,
         gsize           *len)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *obj = json_object_new ();
  JsonArray *connections = json_array_new ();
  g_autofree char *text = NULL;

  json_object_set_int_member (obj, "version", FILE_VERSION);
  for (guint i = 0; i < self->records->len; i++)
    {
      Record *record = self->records->pdata[i];
      JsonObject *member = json_object_new ();
      g_autoptr(GPtrArray) recent = new_entries ();
      g_autofree gpointer *tables = NULL;
      guint n_tables = 0;

      set_string (member, "id", record->id);
      set_string (member, "name", record->name);
      set_string (member, "profile", record->profile);
      set_string (member, "endpoint", record->endpoint);
      set_string (member, "region", record->region);
      json_object_set_member (member, "saved", entries_to_json (record->saved));
      /* Tables in name order: the same contents give the same file. */
      tables = g_hash_table_get_keys_as_array (record->recent, &n_tables);
      qsort (tables, n_tables, sizeof (gpointer), compare_names);
      for (guint t = 0; t < n_tables; t++)
        {
          GPtrArray *list = g_hash_table_lookup (record->recent, tables[t]);

          for (guint e = 0; e < list->len; e++)
            g_ptr_array_add (recent, dyn_read_entry_ref (list->pdata[e]));
        }
      json_object_set_member (member, "recent", entries_to_json (recent));
      json_array_add_object_element (connections, member);
    }
  json_object_set_array_member (obj, "connections", connections);
  json_node_take_object (root, obj);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, len);
  /* A final newline, as text files have. */
  *len += 1;
  return g_strconcat (text, "\n", NULL);
}

static gboolean
save (DynSavedQueries  *self,
      GError          **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *dir = g_path_get_dirname (self->path);
  g_autofree char *text = NULL;
  gsize len = 0;

  if (self->error != NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CONFIG, self->error->message);
      return FALSE;
    }
  text = to_text (self, &len);
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_file_set_contents_full (self->path, text, len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, _("The saved queries could not be written to %s: %s"),
                   self->path, local ? local->message : g_strerror (errno));
      return FALSE;
    }
  g_clear_pointer (&self->contents, g_bytes_unref);
  self->contents = g_bytes_new_take (g_steal_pointer (&text), len);
  return TRUE;
}

/* Connections. */

static gboolean
same_place (Record        *record,
            DynConnection *connection)
{
  return g_strcmp0 (record->name, dyn_connection_get_name (connection)) == 0 &&
         g_strcmp0 (record->profile, dyn_connection_get_profile_name (connection)) == 0 &&
         g_strcmp0 (record->endpoint, dyn_connection_get_endpoint_url (connection)) == 0 &&
         g_strcmp0 (record->region, dyn_connection_get_region (connection)) == 0;
}

static Record *
find_record (DynSavedQueries *self,
             DynConnection   *connection,
             gboolean         create)
{
  const char *id = dyn_connection_get_id (connection);
  Record *record;

  for (guint i = 0; id != NULL && i < self->records->len; i++)
    if (g_strcmp0 (((Record *) self->records->pdata[i])->id, id) == 0)
      return self->records->pdata[i];
  for (guint i = 0; i < self->records->len; i++)
    if (same_place (self->records->pdata[i], connection))
      return self->records->pdata[i];
  if (!create)
    return NULL;
  record = record_new ();
  record->id = g_strdup (id);
  g_ptr_array_add (self->records, record);
  return record;
}

/* What the file says of the connection follows it (a rename, a new region). */
static void
describe_connection (Record        *record,
                     DynConnection *connection)
{
  g_free (record->name);
  record->name = g_strdup (dyn_connection_get_name (connection));
  g_free (record->profile);
  record->profile = g_strdup (dyn_connection_get_profile_name (connection));
  g_free (record->endpoint);
  record->endpoint = g_strdup (dyn_connection_get_endpoint_url (connection));
  g_free (record->region);
  record->region = g_strdup (dyn_connection_get_region (connection));
}

static void
changed (DynSavedQueries *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

GPtrArray *
dyn_saved_queries_dup_saved (DynSavedQueries *self,
                             DynConnection   *connection)
{
  Record *record;

  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), NULL);
  g_return_val_if_fail (DYN_IS_CONNECTION (connection), NULL);

  record = find_record (self, connection, FALSE);
  if (record == NULL)
    return new_entries ();
  return g_ptr_array_copy (record->saved, copy_entry, NULL);
}

GPtrArray *
dyn_saved_queries_dup_recent (DynSavedQueries *self,
                              DynConnection   *connection,
                              const char      *table)
{
  Record *record;
  GPtrArray *list;

  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), NULL);
  g_return_val_if_fail (DYN_IS_CONNECTION (connection), NULL);
  g_return_val_if_fail (table != NULL, NULL);

  record = find_record (self, connection, FALSE);
  list = record ? record_recent (record, table, FALSE) : NULL;
  if (list == NULL)
    return new_entries ();
  return g_ptr_array_copy (list, copy_entry, NULL);
}

DynReadEntry *
dyn_saved_queries_lookup (DynSavedQueries *self,
                          DynConnection   *connection,
                          const char      *id)
{
  Record *record;

  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), NULL);
  g_return_val_if_fail (DYN_IS_CONNECTION (connection), NULL);

  record = find_record (self, connection, FALSE);
  for (guint i = 0; record != NULL && id != NULL && i < record->saved->len; i++)
    if (g_strcmp0 (dyn_read_entry_get_id (record->saved->pdata[i]), id) == 0)
      return record->saved->pdata[i];
  return NULL;
}

gboolean
dyn_saved_queries_add_recent (DynSavedQueries  *self,
                              DynConnection    *connection,
                              DynReadEntry     *entry,
                              GError          **error)
{
  g_autoptr(DynReadEntry) copy = NULL;
  g_autoptr(GError) refresh_error = NULL;
  Record *record;

  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), FALSE);
  g_return_val_if_fail (DYN_IS_CONNECTION (connection), FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);

  /* A file that cannot be read keeps the recent reads in memory. */
  refresh (self, &refresh_error);
  copy = dyn_read_entry_copy_as (entry, NULL, NULL);
  if (dyn_read_entry_get_time (copy) == 0)
    dyn_read_entry_set_time (copy, g_get_real_time ());
  record = find_record (self, connection, TRUE);
  describe_connection (record, connection);
  dyn_read_entries_add_recent (record_recent (record, dyn_read_entry_get_table (copy), TRUE), copy,
                               DYN_RECENT_READS_MAX);
  changed (self);
  if (refresh_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&refresh_error));
      return FALSE;
    }
  return save (self, error);
}

static char *
check_name (DynSavedQueries  *self,
            Record           *record,
            const char       *name,
            const char       *except_id,
            GError          **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (name ? name : ""));

  if (*stripped == '\0')
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("A saved query needs a name"));
      return NULL;
    }
  for (guint i = 0; record != NULL && i < record->saved->len; i++)
    {
      DynReadEntry *other = record->saved->pdata[i];

      if (g_strcmp0 (dyn_read_entry_get_id (other), except_id) != 0 &&
          g_strcmp0 (dyn_read_entry_get_name (other), stripped) == 0)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("A saved query named “%s” exists already"),
                       stripped);
          return NULL;
        }
    }
  return g_steal_pointer (&stripped);
}

/* Before a change of the saved queries: the file as others left it (or as
 * the user repaired it), never one that cannot be read. */
static gboolean
prepare_change (DynSavedQueries  *self,
                GError          **error)
{
  return refresh (self, error);
}

DynReadEntry *
dyn_saved_queries_save (DynSavedQueries  *self,
                        DynConnection    *connection,
                        DynReadEntry     *entry,
                        const char       *name,
                        GError          **error)
{
  g_autofree char *stripped = NULL;
  g_autofree char *id = NULL;
  DynReadEntry *saved;
  Record *record;

  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), NULL);
  g_return_val_if_fail (DYN_IS_CONNECTION (connection), NULL);
  g_return_val_if_fail (entry != NULL, NULL);

  if (!prepare_change (self, error))
    return NULL;
  stripped = check_name (self, find_record (self, connection, FALSE), name, NULL, error);
  if (stripped == NULL)
    return NULL;
  record = find_record (self, connection, TRUE);
  describe_connection (record, connection);
  id = g_uuid_string_random ();
  saved = dyn_read_entry_copy_as (entry, id, stripped);
  if (dyn_read_entry_get_time (saved) == 0)
    dyn_read_entry_set_time (saved, g_get_real_time ());
  g_ptr_array_add (record->saved, saved);
  if (!save (self, error))
    {
      g_ptr_array_remove (record->saved, saved);
      return NULL;
    }
  changed (self);
  return saved;
}

static guint
find_saved (Record     *record,
            const char *id)
{
  for (guint i = 0; record != NULL && i < record->saved->len; i++)
    if (g_strcmp0 (dyn_read_entry_get_id (record->saved->pdata[i]), id) == 0)
      return i;
  return G_MAXUINT;
}

gboolean
dyn_saved_queries_rename (DynSavedQueries  *self,
                          DynConnection    *connection,
                          const char       *id,
                          const char       *name,
                          GError          **error)
{
  g_autofree char *stripped = NULL;
  g_autoptr(DynReadEntry) old = NULL;
  Record *record;
  guint i;

  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), FALSE);
  g_return_val_if_fail (DYN_IS_CONNECTION (connection), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  if (!prepare_change (self, error))
    return FALSE;
  record = find_record (self, connection, FALSE);
  i = find_saved (record, id);
  if (i == G_MAXUINT)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_NOT_FOUND, _("The saved query no longer exists"));
      return FALSE;
    }
  stripped = check_name (self, record, name, id, error);
  if (stripped == NULL)
    return FALSE;
  old = record->saved->pdata[i];
  record->saved->pdata[i] = dyn_read_entry_copy_as (old, id, stripped);
  if (!save (self, error))
    {
      dyn_read_entry_unref (record->saved->pdata[i]);
      record->saved->pdata[i] = g_steal_pointer (&old);
      return FALSE;
    }
  changed (self);
  return TRUE;
}

gboolean
dyn_saved_queries_remove (DynSavedQueries  *self,
                          DynConnection    *connection,
                          const char       *id,
                          GError          **error)
{
  g_autoptr(DynReadEntry) old = NULL;
  Record *record;
  guint i;

  g_return_val_if_fail (DYN_IS_SAVED_QUERIES (self), FALSE);
  g_return_val_if_fail (DYN_IS_CONNECTION (connection), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  if (!prepare_change (self, error))
    return FALSE;
  record = find_record (self, connection, FALSE);
  i = find_saved (record, id);
  if (i == G_MAXUINT)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_NOT_FOUND, _("The saved query no longer exists"));
      return FALSE;
    }
  old = g_ptr_array_steal_index (record->saved, i);
  if (!save (self, error))
    {
      g_ptr_array_insert (record->saved, i, g_steal_pointer (&old));
      return FALSE;
    }
  changed (self);
  return TRUE;
}
