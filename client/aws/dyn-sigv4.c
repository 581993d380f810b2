/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-sigv4"

#include "config.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
# define HAVE_SHA_NI 1
# include <cpuid.h>
# include <immintrin.h>
#endif

#include "dyn-secret-private.h"
#include "dyn-sigv4.h"

#define ALGORITHM "AWS4-HMAC-SHA256"
#define N_CACHED_KEYS 4
#define SHA256_LEN 32

typedef struct {
  char   *secret;           /* wiped before it is freed */
  char    date[9];
  char   *region;
  char   *service;
  guint8  key[SHA256_LEN];  /* wiped before it is freed */
  guint64 last_use;
} CachedKey;

struct _DynSigv4Signer {
  GMutex    mutex;
  CachedKey keys[N_CACHED_KEYS];
  guint64   clock;
};

typedef struct {
  char       *name;   /* lower case */
  const char *value;  /* raw */
  gsize       order;
} Entry;

/* SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104). GLib's GChecksum works
 * but spends most of a signature in its portable transform; this one uses the
 * x86 SHA extensions when the CPU has them. */

typedef struct {
  guint32 h[8];
  guint64 len;
  guint8  buf[64];
  gsize   buf_len;
} Sha256;

static const guint32 sha256_k[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void
sha256_compress_portable (guint32       h[8],
                          const guint8 *data,
                          gsize         n_blocks)
{
  for (; n_blocks > 0; n_blocks--, data += 64)
    {
      guint32 w[64];
      guint32 a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];

      for (guint t = 0; t < 16; t++)
        w[t] = (guint32) data[4 * t] << 24 | (guint32) data[4 * t + 1] << 16 |
               (guint32) data[4 * t + 2] << 8 | (guint32) data[4 * t + 3];
      for (guint t = 16; t < 64; t++)
        {
          guint32 s0 = ROTR (w[t - 15], 7) ^ ROTR (w[t - 15], 18) ^ (w[t - 15] >> 3);
          guint32 s1 = ROTR (w[t - 2], 17) ^ ROTR (w[t - 2], 19) ^ (w[t - 2] >> 10);

          w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }

      /* Eight rounds per pass, renaming the variables instead of moving them. */
#define ROUND(a, b, c, d, e, f, g, h, t) \
      do { \
        guint32 t1 = h + (ROTR (e, 6) ^ ROTR (e, 11) ^ ROTR (e, 25)) + \
                     ((e & f) ^ (~e & g)) + sha256_k[t] + w[t]; \
        d += t1; \
        h = t1 + (ROTR (a, 2) ^ ROTR (a, 13) ^ ROTR (a, 22)) + ((a & b) ^ (a & c) ^ (b & c)); \
      } while (0)
      for (guint t = 0; t < 64; t += 8)
        {
          ROUND (a, b, c, d, e, f, g, hh, t);
          ROUND (hh, a, b, c, d, e, f, g, t + 1);
          ROUND (g, hh, a, b, c, d, e, f, t + 2);
          ROUND (f, g, hh, a, b, c, d, e, t + 3);
          ROUND (e, f, g, hh, a, b, c, d, t + 4);
          ROUND (d, e, f, g, hh, a, b, c, t + 5);
          ROUND (c, d, e, f, g, hh, a, b, t + 6);
          ROUND (b, c, d, e, f, g, hh, a, t + 7);
        }
#undef ROUND

      h[0] += a; h[1] += b; h[2] += c; h[3] += d;
      h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
}

#undef ROTR

#ifdef HAVE_SHA_NI
__attribute__ ((target ("sha,sse4.1,ssse3")))
static void
sha256_compress_shani (guint32       h[8],
                       const guint8 *data,
                       gsize         n_blocks)
{
  const __m128i mask = _mm_set_epi64x (0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i state0, state1, tmp;

  /* h[0..7] as ABEF and CDGH, the layout sha256rnds2 works on. */
  tmp = _mm_shuffle_epi32 (_mm_loadu_si128 ((const __m128i *) &h[0]), 0xB1);
  state1 = _mm_shuffle_epi32 (_mm_loadu_si128 ((const __m128i *) &h[4]), 0x1B);
  state0 = _mm_alignr_epi8 (tmp, state1, 8);
  state1 = _mm_blend_epi16 (state1, tmp, 0xF0);

  for (; n_blocks > 0; n_blocks--, data += 64)
    {
      __m128i abef = state0, cdgh = state1;
      __m128i w[4];

      for (guint i = 0; i < 16; i++)
        {
          __m128i msg;

          if (i < 4)
            w[i] = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) (data + 16 * i)), mask);
          else
            {
              __m128i x = _mm_sha256msg1_epu32 (w[i % 4], w[(i + 1) % 4]);

              x = _mm_add_epi32 (x, _mm_alignr_epi8 (w[(i + 3) % 4], w[(i + 2) % 4], 4));
              w[i % 4] = _mm_sha256msg2_epu32 (x, w[(i + 3) % 4]);
            }

          msg = _mm_add_epi32 (w[i % 4], _mm_loadu_si128 ((const __m128i *) &sha256_k[4 * i]));
          state1 = _mm_sha256rnds2_epu32 (state1, state0, msg);
          msg = _mm_shuffle_epi32 (msg, 0x0E);
          state0 = _mm_sha256rnds2_epu32 (state0, state1, msg);
        }

      state0 = _mm_add_epi32 (state0, abef);
      state1 = _mm_add_epi32 (state1, cdgh);
    }

  tmp = _mm_shuffle_epi32 (state0, 0x1B);
  state1 = _mm_shuffle_epi32 (state1, 0xB1);
  state0 = _mm_blend_epi16 (tmp, state1, 0xF0);
  state1 = _mm_alignr_epi8 (state1, tmp, 8);
  _mm_storeu_si128 ((__m128i *) &h[0], state0);
  _mm_storeu_si128 ((__m128i *) &h[4], state1);
}

static gboolean
cpu_has_sha_ni (void)
{
  unsigned int a, b, c, d;

  if (!__get_cpuid (1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3))
    return FALSE;
  if (!__get_cpuid_count (7, 0, &a, &b, &c, &d))
    return FALSE;

  return (b & (1u << 29)) != 0;
}
#endif

typedef void (*Sha256Compress) (guint32 h[8], const guint8 *data, gsize n_blocks);

static Sha256Compress
sha256_compress_func (void)
{
  static gsize impl = 0;

  if (g_once_init_enter (&impl))
    {
      Sha256Compress f = sha256_compress_portable;

#ifdef HAVE_SHA_NI
      if (cpu_has_sha_ni () && g_getenv ("DYN_SIGV4_PORTABLE_SHA256") == NULL)
        f = sha256_compress_shani;
#endif
      g_once_init_leave (&impl, (gsize) f);
    }

  return (Sha256Compress) impl;
}

static void
sha256_init (Sha256 *ctx)
{
  static const guint32 iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  };

  memcpy (ctx->h, iv, sizeof iv);
  ctx->len = 0;
  ctx->buf_len = 0;
}

static void
sha256_update (Sha256        *ctx,
               gconstpointer  data,
               gsize          len)
{
  Sha256Compress compress = sha256_compress_func ();
  const guint8 *p = data;

  ctx->len += len;

  if (ctx->buf_len > 0)
    {
      gsize n = MIN (len, 64 - ctx->buf_len);

      memcpy (ctx->buf + ctx->buf_len, p, n);
      ctx->buf_len += n;
      p += n;
      len -= n;
      if (ctx->buf_len < 64)
        return;
      compress (ctx->h, ctx->buf, 1);
      ctx->buf_len = 0;
    }

  if (len >= 64)
    {
      compress (ctx->h, p, len / 64);
      p += len - len % 64;
      len %= 64;
    }

  if (len > 0)
    {
      memcpy (ctx->buf, p, len);
      ctx->buf_len = len;
    }
}

static void
sha256_final (Sha256 *ctx,
              guint8  out[SHA256_LEN])
{
  guint64 bits = ctx->len * 8;
  guint8 pad[72] = { 0x80 };
  gsize pad_len = (ctx->buf_len < 56 ? 56 : 120) - ctx->buf_len;

  for (guint i = 0; i < 8; i++)
    pad[pad_len + i] = (guint8) (bits >> (56 - 8 * i));
  sha256_update (ctx, pad, pad_len + 8);

  for (guint i = 0; i < 8; i++)
    {
      out[4 * i] = (guint8) (ctx->h[i] >> 24);
      out[4 * i + 1] = (guint8) (ctx->h[i] >> 16);
      out[4 * i + 2] = (guint8) (ctx->h[i] >> 8);
      out[4 * i + 3] = (guint8) ctx->h[i];
    }
  explicit_bzero (ctx, sizeof *ctx);
}

static void
sha256 (gconstpointer data,
        gsize         len,
        guint8        out[SHA256_LEN])
{
  Sha256 ctx;

  sha256_init (&ctx);
  sha256_update (&ctx, data, len);
  sha256_final (&ctx, out);
}

static void
hmac_sha256 (const guint8 *key,
             gsize         key_len,
             const char   *msg,
             gsize         msg_len,
             guint8        out[SHA256_LEN])
{
  guint8 k[64] = { 0 };
  guint8 inner[SHA256_LEN];
  Sha256 ctx;

  if (key_len > sizeof k)
    sha256 (key, key_len, k);
  else
    memcpy (k, key, key_len);

  for (guint i = 0; i < sizeof k; i++)
    k[i] ^= 0x36;
  sha256_init (&ctx);
  sha256_update (&ctx, k, sizeof k);
  sha256_update (&ctx, msg, msg_len);
  sha256_final (&ctx, inner);

  for (guint i = 0; i < sizeof k; i++)
    k[i] ^= 0x36 ^ 0x5c;
  sha256_init (&ctx);
  sha256_update (&ctx, k, sizeof k);
  sha256_update (&ctx, inner, sizeof inner);
  sha256_final (&ctx, out);

  explicit_bzero (k, sizeof k);
  explicit_bzero (inner, sizeof inner);
}

static void
to_hex (const guint8 *digest,
        char          out[2 * SHA256_LEN + 1])
{
  static const char hex[] = "0123456789abcdef";

  for (guint i = 0; i < SHA256_LEN; i++)
    {
      out[2 * i] = hex[digest[i] >> 4];
      out[2 * i + 1] = hex[digest[i] & 0xf];
    }
  out[2 * SHA256_LEN] = '\0';
}

static void
cached_key_clear (CachedKey *ck)
{
  g_clear_pointer (&ck->secret, _dyn_secret_free);
  g_clear_pointer (&ck->region, g_free);
  g_clear_pointer (&ck->service, g_free);
  explicit_bzero (ck->key, sizeof ck->key);
  ck->date[0] = '\0';
  ck->last_use = 0;
}

static void
derive_key (const char *secret,
            const char *date,
            const char *region,
            const char *service,
            guint8      out[SHA256_LEN])
{
  g_autofree char *k_secret = g_strconcat ("AWS4", secret, NULL);
  guint8 k_date[SHA256_LEN], k_region[SHA256_LEN], k_service[SHA256_LEN];

  hmac_sha256 ((const guint8 *) k_secret, strlen (k_secret), date, strlen (date), k_date);
  explicit_bzero (k_secret, strlen (k_secret));
  hmac_sha256 (k_date, SHA256_LEN, region, strlen (region), k_region);
  hmac_sha256 (k_region, SHA256_LEN, service, strlen (service), k_service);
  hmac_sha256 (k_service, SHA256_LEN, "aws4_request", strlen ("aws4_request"), out);
  explicit_bzero (k_date, sizeof k_date);
  explicit_bzero (k_region, sizeof k_region);
  explicit_bzero (k_service, sizeof k_service);
}

/* Copies the signing key for (secret, date, region, service) to @out, deriving
 * and caching it when it is not cached yet. */
static void
signing_key (DynSigv4Signer *self,
             const char     *secret,
             const char     *date,
             const char     *region,
             const char     *service,
             guint8          out[SHA256_LEN])
{
  CachedKey *victim = NULL;

  g_mutex_lock (&self->mutex);
  self->clock++;

  for (guint i = 0; i < N_CACHED_KEYS; i++)
    {
      CachedKey *ck = &self->keys[i];

      if (ck->secret != NULL &&
          strcmp (ck->date, date) == 0 &&
          strcmp (ck->region, region) == 0 &&
          strcmp (ck->service, service) == 0 &&
          strcmp (ck->secret, secret) == 0)
        {
          ck->last_use = self->clock;
          memcpy (out, ck->key, SHA256_LEN);
          g_mutex_unlock (&self->mutex);
          return;
        }

      if (victim == NULL || ck->last_use < victim->last_use)
        victim = ck;
    }

  derive_key (secret, date, region, service, out);

  cached_key_clear (victim);
  victim->secret = g_strdup (secret);
  g_strlcpy (victim->date, date, sizeof victim->date);
  victim->region = g_strdup (region);
  victim->service = g_strdup (service);
  memcpy (victim->key, out, SHA256_LEN);
  victim->last_use = self->clock;

  g_mutex_unlock (&self->mutex);
}

static inline gboolean
is_unreserved (guchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_' || c == '.' || c == '~';
}

static inline gboolean
is_space (guchar c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void
append_uri_encoded (GString    *out,
                    const char *s,
                    gsize       len,
                    gboolean    keep_slash)
{
  static const char hex[] = "0123456789ABCDEF";

  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) s[i];

      if (is_unreserved (c) || (keep_slash && c == '/'))
        g_string_append_c (out, c);
      else
        {
          g_string_append_c (out, '%');
          g_string_append_c (out, hex[c >> 4]);
          g_string_append_c (out, hex[c & 0xf]);
        }
    }
}

/* RFC 3986 dot-segment removal, also dropping empty segments, keeping a
 * trailing slash. */
static char *
normalize_path (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  gsize len = strlen (path);
  GString *out;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0)
        continue;
      if (strcmp (parts[i], "..") == 0)
        {
          if (kept->len > 0)
            g_ptr_array_set_size (kept, kept->len - 1);
          continue;
        }
      g_ptr_array_add (kept, parts[i]);
    }

  out = g_string_new ("/");
  for (guint i = 0; i < kept->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '/');
      g_string_append (out, g_ptr_array_index (kept, i));
    }
  if (kept->len > 0 && len > 0 && path[len - 1] == '/')
    g_string_append_c (out, '/');

  return g_string_free (out, FALSE);
}

static void
append_canonical_uri (GString       *out,
                      const char    *path,
                      DynSigv4Flags  flags)
{
  g_autofree char *normalized = NULL;

  if (path == NULL || path[0] == '\0')
    path = "/";

  if (flags & DYN_SIGV4_NORMALIZE_PATH)
    path = normalized = normalize_path (path);

  append_uri_encoded (out, path, strlen (path), TRUE);
}

static char *
uri_decode (const char *s,
            gsize       len)
{
  GString *out = g_string_sized_new (len);

  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '%' && i + 2 < len &&
          g_ascii_isxdigit (s[i + 1]) && g_ascii_isxdigit (s[i + 2]))
        {
          g_string_append_c (out, (char) (g_ascii_xdigit_value (s[i + 1]) << 4 |
                                          g_ascii_xdigit_value (s[i + 2])));
          i += 2;
        }
      else
        g_string_append_c (out, s[i]);
    }

  return g_string_free (out, FALSE);
}

typedef struct {
  char *key;
  char *value;
} QueryParam;

static int
query_param_compare (gconstpointer a,
                     gconstpointer b)
{
  const QueryParam *pa = a, *pb = b;
  int r = strcmp (pa->key, pb->key);

  return r != 0 ? r : strcmp (pa->value, pb->value);
}

static void
query_param_clear (gpointer data)
{
  QueryParam *p = data;

  g_free (p->key);
  g_free (p->value);
}

/* Each parameter is decoded and encoded again, so that raw and
 * percent-encoded query strings give the same canonical form. */
static void
append_canonical_query (GString    *out,
                        const char *query)
{
  g_autoptr(GArray) params = NULL;
  const char *p = query;

  if (query == NULL || query[0] == '\0')
    return;

  params = g_array_new (FALSE, FALSE, sizeof (QueryParam));
  g_array_set_clear_func (params, query_param_clear);

  while (*p != '\0')
    {
      const char *end = strchr (p, '&');
      const char *eq;
      gsize len = end != NULL ? (gsize) (end - p) : strlen (p);

      if (len > 0)
        {
          g_autofree char *key = NULL;
          g_autofree char *value = NULL;
          GString *enc;
          QueryParam param;

          eq = memchr (p, '=', len);
          if (eq != NULL)
            {
              key = uri_decode (p, eq - p);
              value = uri_decode (eq + 1, len - (eq - p) - 1);
            }
          else
            {
              key = uri_decode (p, len);
              value = g_strdup ("");
            }

          enc = g_string_new (NULL);
          append_uri_encoded (enc, key, strlen (key), FALSE);
          param.key = g_string_free (enc, FALSE);
          enc = g_string_new (NULL);
          append_uri_encoded (enc, value, strlen (value), FALSE);
          param.value = g_string_free (enc, FALSE);
          g_array_append_val (params, param);
        }

      if (end == NULL)
        break;
      p = end + 1;
    }

  g_array_sort (params, query_param_compare);

  for (guint i = 0; i < params->len; i++)
    {
      QueryParam *param = &g_array_index (params, QueryParam, i);

      if (i > 0)
        g_string_append_c (out, '&');
      g_string_append (out, param->key);
      g_string_append_c (out, '=');
      g_string_append (out, param->value);
    }
}

/* Trims the value and collapses each run of whitespace (folded continuation
 * lines included) into one space. */
static void
append_trimmed_value (GString    *out,
                      const char *value)
{
  const guchar *p = (const guchar *) value;
  gboolean pending_space = FALSE;
  gboolean any = FALSE;

  for (; *p != '\0'; p++)
    {
      if (is_space (*p))
        {
          pending_space = any;
          continue;
        }
      if (pending_space)
        g_string_append_c (out, ' ');
      g_string_append_c (out, *p);
      pending_space = FALSE;
      any = TRUE;
    }
}

static char *
header_name_down (const char *name)
{
  const char *start = name;
  const char *end = name + strlen (name);
  char *lname;

  while (start < end && is_space (*start))
    start++;
  while (end > start && is_space (end[-1]))
    end--;

  lname = g_strndup (start, end - start);
  for (char *c = lname; *c != '\0'; c++)
    *c = g_ascii_tolower (*c);

  return lname;
}

static int
entry_compare (gconstpointer a,
               gconstpointer b)
{
  const Entry *ea = a, *eb = b;
  int r = strcmp (ea->name, eb->name);

  if (r != 0)
    return r;
  return ea->order < eb->order ? -1 : ea->order > eb->order;
}

static void
entry_clear (gpointer data)
{
  Entry *e = data;

  g_free (e->name);
}

static gboolean
is_skipped_header (const char *lname)
{
  static const char * const skipped[] = {
    "authorization", "x-amz-date", "x-amz-security-token",
    "user-agent", "expect", "x-amzn-trace-id",
  };

  for (guint i = 0; i < G_N_ELEMENTS (skipped); i++)
    if (strcmp (lname, skipped[i]) == 0)
      return TRUE;

  return FALSE;
}

static void
add_entry (GArray     *entries,
           char       *lname,
           const char *value)
{
  Entry e = { lname, value, entries->len };

  g_array_append_val (entries, e);
}

void
dyn_sigv4_format_amz_date (gint64 unix_time,
                           char   out[17])
{
  gint64 days, secs, z, era, doe, yoe, y, doy, mp, d, m;

  g_return_if_fail (out != NULL);

  /* Days to civil date (Howard Hinnant's algorithm), valid for any year. */
  days = unix_time / 86400;
  secs = unix_time % 86400;
  if (secs < 0)
    {
      secs += 86400;
      days--;
    }

  z = days + 719468;
  era = (z >= 0 ? z : z - 146096) / 146097;
  doe = z - era * 146097;
  yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = yoe + era * 400;
  doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2)
    y++;

  y = CLAMP (y, 0, 9999);
  g_snprintf (out, 17, "%04d%02d%02dT%02d%02d%02dZ",
              (int) y, (int) m, (int) d,
              (int) (secs / 3600), (int) (secs / 60 % 60), (int) (secs % 60));
}

void
dyn_sigv4_signature_free (DynSigv4Signature *signature)
{
  if (signature == NULL)
    return;

  g_free (signature->authorization);
  g_free (signature->amz_date);
  g_free (signature->content_sha256);
  g_free (signature->canonical_request);
  g_free (signature->string_to_sign);
  g_free (signature->signature);
  g_free (signature);
}

DynSigv4Signer *
dyn_sigv4_signer_new (void)
{
  DynSigv4Signer *self = g_new0 (DynSigv4Signer, 1);

  g_mutex_init (&self->mutex);

  return self;
}

void
dyn_sigv4_signer_free (DynSigv4Signer *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < N_CACHED_KEYS; i++)
    cached_key_clear (&self->keys[i]);
  g_mutex_clear (&self->mutex);
  g_free (self);
}

DynSigv4Signature *
dyn_sigv4_signer_sign (DynSigv4Signer            *self,
                       const DynSigv4Credentials *credentials,
                       const char                *region,
                       const char                *service,
                       gint64                     unix_time,
                       DynSigv4Flags              flags,
                       const DynSigv4Request     *request)
{
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GString) canonical = NULL;
  g_autoptr(GString) signed_headers = NULL;
  g_autoptr(GString) sts = NULL;
  char body_hash[2 * SHA256_LEN + 1];
  char hex[2 * SHA256_LEN + 1];
  guint8 digest[SHA256_LEN];
  const char *payload_hash = NULL;
  DynSigv4Signature *result;
  char amz_date[17];
  char date[9];
  guint8 key[SHA256_LEN];

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (credentials != NULL, NULL);
  g_return_val_if_fail (credentials->access_key_id != NULL, NULL);
  g_return_val_if_fail (credentials->secret_access_key != NULL, NULL);
  g_return_val_if_fail (region != NULL && service != NULL, NULL);
  g_return_val_if_fail (request != NULL && request->method != NULL, NULL);
  g_return_val_if_fail (request->headers != NULL || request->n_headers == 0, NULL);
  g_return_val_if_fail (request->body != NULL || request->body_len == 0, NULL);

  result = g_new0 (DynSigv4Signature, 1);

  dyn_sigv4_format_amz_date (unix_time, amz_date);
  memcpy (date, amz_date, 8);
  date[8] = '\0';
  result->amz_date = g_strdup (amz_date);

  sha256 (request->body_len > 0 ? request->body : "", request->body_len, digest);
  to_hex (digest, body_hash);

  entries = g_array_sized_new (FALSE, FALSE, sizeof (Entry), request->n_headers + 3);
  g_array_set_clear_func (entries, entry_clear);

  for (gsize i = 0; i < request->n_headers; i++)
    {
      char *lname = header_name_down (request->headers[i].name);

      if (is_skipped_header (lname) ||
          ((flags & DYN_SIGV4_SIGN_BODY) && strcmp (lname, "x-amz-content-sha256") == 0))
        {
          g_free (lname);
          continue;
        }
      if (strcmp (lname, "x-amz-content-sha256") == 0)
        payload_hash = request->headers[i].value;
      add_entry (entries, lname, request->headers[i].value ? request->headers[i].value : "");
    }

  add_entry (entries, g_strdup ("x-amz-date"), result->amz_date);
  if (credentials->session_token != NULL && !(flags & DYN_SIGV4_OMIT_SESSION_TOKEN))
    add_entry (entries, g_strdup ("x-amz-security-token"), credentials->session_token);
  if (flags & DYN_SIGV4_SIGN_BODY)
    {
      result->content_sha256 = g_strdup (body_hash);
      add_entry (entries, g_strdup ("x-amz-content-sha256"), result->content_sha256);
    }

  g_array_sort (entries, entry_compare);

  canonical = g_string_sized_new (512);
  g_string_append (canonical, request->method);
  g_string_append_c (canonical, '\n');
  append_canonical_uri (canonical, request->path, flags);
  g_string_append_c (canonical, '\n');
  append_canonical_query (canonical, request->query);
  g_string_append_c (canonical, '\n');

  signed_headers = g_string_sized_new (128);
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);

      if (i > 0 && strcmp (e->name, g_array_index (entries, Entry, i - 1).name) == 0)
        {
          /* Another value of the same header. */
          g_string_append_c (canonical, ',');
          append_trimmed_value (canonical, e->value);
          continue;
        }

      if (i > 0)
        {
          g_string_append_c (canonical, '\n');
          g_string_append_c (signed_headers, ';');
        }
      g_string_append (canonical, e->name);
      g_string_append_c (canonical, ':');
      append_trimmed_value (canonical, e->value);
      g_string_append (signed_headers, e->name);
    }
  g_string_append (canonical, "\n\n");
  g_string_append_len (canonical, signed_headers->str, signed_headers->len);
  g_string_append_c (canonical, '\n');
  g_string_append (canonical, payload_hash != NULL ? payload_hash : body_hash);

  sts = g_string_sized_new (160);
  g_string_append (sts, ALGORITHM "\n");
  g_string_append (sts, amz_date);
  g_string_append_c (sts, '\n');
  g_string_append_printf (sts, "%s/%s/%s/aws4_request\n", date, region, service);
  sha256 (canonical->str, canonical->len, digest);
  to_hex (digest, hex);
  g_string_append_len (sts, hex, 2 * SHA256_LEN);

  signing_key (self, credentials->secret_access_key, date, region, service, key);
  hmac_sha256 (key, SHA256_LEN, sts->str, sts->len, digest);
  explicit_bzero (key, sizeof key);
  to_hex (digest, hex);
  result->signature = g_strdup (hex);

  result->authorization = g_strdup_printf (ALGORITHM " Credential=%s/%s/%s/%s/aws4_request, "
                                           "SignedHeaders=%s, Signature=%s",
                                           credentials->access_key_id, date, region, service,
                                           signed_headers->str, result->signature);
  result->canonical_request = g_string_free (g_steal_pointer (&canonical), FALSE);
  result->string_to_sign = g_string_free (g_steal_pointer (&sts), FALSE);

  return result;
}

char **
dyn_sigv4_signer_dynamodb_headers (DynSigv4Signer            *self,
                                   const DynSigv4Credentials *credentials,
                                   const char                *region,
                                   const char                *host,
                                   const char                *target,
                                   gconstpointer              body,
                                   gsize                      body_len,
                                   gint64                     unix_time)
{
  g_autoptr(DynSigv4Signature) sig = NULL;
  GPtrArray *lines;
  const DynSigv4Header headers[] = {
    { "Host", host },
    { "Content-Type", "application/x-amz-json-1.0" },
    { "X-Amz-Target", target },
  };
  DynSigv4Request request = {
    .method = "POST",
    .path = "/",
    .headers = headers,
    .n_headers = G_N_ELEMENTS (headers),
    .body = body,
    .body_len = body_len,
  };

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (credentials != NULL, NULL);
  g_return_val_if_fail (region != NULL, NULL);
  g_return_val_if_fail (host != NULL, NULL);
  g_return_val_if_fail (target != NULL, NULL);

  sig = dyn_sigv4_signer_sign (self, credentials, region, "dynamodb", unix_time,
                               DYN_SIGV4_NORMALIZE_PATH, &request);
  if (sig == NULL)
    return NULL;

  lines = g_ptr_array_sized_new (7);
  g_ptr_array_add (lines, g_strconcat ("Host: ", host, NULL));
  g_ptr_array_add (lines, g_strdup ("Content-Type: application/x-amz-json-1.0"));
  g_ptr_array_add (lines, g_strconcat ("X-Amz-Target: ", target, NULL));
  g_ptr_array_add (lines, g_strconcat ("X-Amz-Date: ", sig->amz_date, NULL));
  if (credentials->session_token != NULL)
    g_ptr_array_add (lines, g_strconcat ("X-Amz-Security-Token: ",
                                         credentials->session_token, NULL));
  g_ptr_array_add (lines, g_strconcat ("Authorization: ", sig->authorization, NULL));
  g_ptr_array_add (lines, NULL);

  return (char **) g_ptr_array_free (lines, FALSE);
}

char *
dyn_sigv4_host_from_url (const char *url)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *host = NULL;
  const char *scheme;
  int port;
  int default_port = -1;

  g_return_val_if_fail (url != NULL, NULL);

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    return NULL;

  host = g_ascii_strdown (g_uri_get_host (uri), -1);
  if (strchr (host, ':') != NULL)
    {
      char *bracketed = g_strconcat ("[", host, "]", NULL);

      g_free (host);
      host = bracketed;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") == 0)
    default_port = 80;
  else if (g_ascii_strcasecmp (scheme, "https") == 0)
    default_port = 443;

  port = g_uri_get_port (uri);
  if (port >= 0 && port != default_port)
    return g_strdup_printf ("%s:%d", host, port);

  return g_steal_pointer (&host);
}
