/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "dyn-transfer.h"

/* 12,345 with the locale's grouping. */
static char *
format_count (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

static char *
format_duration (double seconds)
{
  guint64 s = (guint64) llround (seconds);

  if (s >= 3600)
    return g_strdup_printf ("%" G_GUINT64_FORMAT ":%02u:%02u", s / 3600, (guint) (s / 60 % 60), (guint) (s % 60));
  return g_strdup_printf ("%u:%02u", (guint) (s / 60), (guint) (s % 60));
}

static void
append_count (GString    *out,
              const char *format,
              guint64     n)
{
  g_autofree char *text = format_count (n);

  g_string_append_printf (out, format, text);
}

char *
dyn_transfer_progress_describe (const DynTransferProgress *p)
{
  GString *out = g_string_new (NULL);
  g_autofree char *items = format_count (p->items);

  g_return_val_if_fail (p != NULL, NULL);

  if (p->items_total > 0)
    {
      g_autofree char *total = format_count (p->items_total);
      /* Translators: items done of items expected, "12,345 of ~50,000 items" */
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s of ~%s item", "%s of ~%s items",
                                                p->items_total),
                              items, total);
    }
  else
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s item", "%s items", p->items), items);

  if (p->bytes > 0)
    {
      g_autofree char *size = g_format_size (p->bytes);
      g_string_append_printf (out, " · %s", size);
    }
  if (p->read_units > 0)
    /* Translators: consumed read capacity units */
    g_string_append_printf (out, _(" · %.1f RCU"), p->read_units);
  if (p->write_units > 0)
    /* Translators: consumed write capacity units */
    g_string_append_printf (out, _(" · %.1f WCU"), p->write_units);
  if (p->segments > 1)
    g_string_append_printf (out, _(" · %u of %u segments done"), p->segments_done, p->segments);
  if (p->retries > 0)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, " · %u retry", " · %u retries", p->retries),
                            p->retries);
  if (p->skipped > 0)
    append_count (out, g_dngettext (GETTEXT_PACKAGE, " · %s bad line skipped",
                                    " · %s bad lines skipped", p->skipped), p->skipped);
  if (p->existing > 0)
    append_count (out, g_dngettext (GETTEXT_PACKAGE, " · %s existing item left as it was",
                                    " · %s existing items left as they were", p->existing), p->existing);
  if (p->identical > 0)
    append_count (out, g_dngettext (GETTEXT_PACKAGE, " · %s item already there",
                                    " · %s items already there", p->identical), p->identical);
  if (p->finished)
    {
      g_autofree char *took = format_duration (p->elapsed);
      /* Translators: how long the job took, "0:42" */
      g_string_append_printf (out, _(" · done in %s"), took);
    }
  else if (p->eta >= 0)
    {
      g_autofree char *left = format_duration (p->eta);
      /* Translators: the time still to go, "0:42 left" */
      g_string_append_printf (out, _(" · %s left"), left);
    }
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------ rate limiter */

struct _DynRateLimiter
{
  double rate;       /* units per second */
  double tokens;     /* may go below 0: a call consumed more than estimated */
  gint64 last;       /* monotonic µs of the last refill */
};

DynRateLimiter *
dyn_rate_limiter_new (double units_per_second)
{
  DynRateLimiter *self;

  g_return_val_if_fail (units_per_second > 0, NULL);

  self = g_new0 (DynRateLimiter, 1);
  self->rate = units_per_second;
  /* Start with one second's units: a job may begin at once. */
  self->tokens = units_per_second;
  self->last = g_get_monotonic_time ();
  return self;
}

void
dyn_rate_limiter_free (DynRateLimiter *self)
{
  g_free (self);
}

static void
refill (DynRateLimiter *self)
{
  gint64 now = g_get_monotonic_time ();

  self->tokens = MIN (self->rate, self->tokens + self->rate * (now - self->last) / G_USEC_PER_SEC);
  self->last = now;
}

gint64
dyn_rate_limiter_reserve (DynRateLimiter *self,
                          double          units)
{
  double need;

  g_return_val_if_fail (self != NULL, 0);

  refill (self);
  /* A call larger than the bucket may go once the bucket is full. */
  need = MIN (units, self->rate);
  if (self->tokens >= need)
    {
      self->tokens -= units;
      return 0;
    }
  return (gint64) ceil ((need - self->tokens) / self->rate * G_USEC_PER_SEC);
}

void
dyn_rate_limiter_settle (DynRateLimiter *self,
                         double          estimated,
                         double          consumed)
{
  g_return_if_fail (self != NULL);

  refill (self);
  self->tokens += estimated - consumed;
  self->tokens = MIN (self->rate, self->tokens);
}
