/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Key conditions on global secondary indexes with multi-attribute keys
 * (DynamoDB, November 2025), with the verdict DynamoDB Local (2026-01-16)
 * gives. tests/test-expr.c checks Dynoscope's verdict, message and position
 * for each; tests/test-cli.c sends each to DynamoDB Local and checks that it
 * still answers so. The table:
 *
 *   pk S (HASH), sk S (RANGE)
 *   GSI ByTenant:  tenant S, site N (HASH); kind S, seq N, tag S (RANGE)
 *   GSI Wide:      h1, h2, h3, h4 S (HASH); r1, r2, r3, r4 S (RANGE)
 *   GSI ByKind:    kind S (HASH); seq N (RANGE)
 *
 * The values: :s and :t strings, :n and :m numbers. */

typedef struct
{
  const char *index;
  const char *condition;
  /* NULL: DynamoDB accepts it; else a fragment of Dynoscope's message. */
  const char *refusal;
  /* Where the error points: the text it starts at (NULL: character 1). */
  const char *at;
} DynMultiKeyCase;

#define DYN_MULTIKEY_WIDE_HASH "h1 = :s AND h2 = :s AND h3 = :s AND h4 = :s"

static const DynMultiKeyCase dyn_multikey_cases[] = {
  /* Every partition attribute with an equality, in any order. */
  { "ByTenant", "tenant = :s AND site = :n", NULL, NULL },
  { "ByTenant", "site = :n AND tenant = :s", NULL, NULL },
  { "ByTenant", "(tenant = :s) AND ((site = :n) AND (kind = :t))", NULL, NULL },
  { "ByTenant", "tenant = :s", "there is none on site", NULL },
  { "ByTenant", "site = :n", "there is none on tenant", NULL },
  { "ByTenant", "tenant = :s AND site > :n", "the partition key site must be compared with =", "site >" },
  { "ByTenant", "begins_with(tenant, :s) AND site = :n", "the partition key tenant must be compared with =",
    "begins_with" },
  { "ByTenant", "tenant = :s AND tenant = :t AND site = :n", "the partition key tenant is used twice",
    "tenant = :t" },
  { "ByTenant", "tenant = :t AND site = :s", "the key site is a number", ":s" },
  /* Sort attributes left to right, the last one used with any key condition. */
  { "ByTenant", "tenant = :s AND site = :n AND kind = :t", NULL, NULL },
  { "ByTenant", "seq > :n AND tenant = :s AND kind = :t AND site = :n", NULL, NULL },
  { "ByTenant", "tenant = :s AND site = :n AND begins_with(kind, :t)", NULL, NULL },
  { "ByTenant", "tenant = :s AND site = :n AND kind BETWEEN :s AND :t", NULL, NULL },
  { "ByTenant", "tenant = :s AND site = :n AND kind = :t AND seq BETWEEN :n AND :m", NULL, NULL },
  { "ByTenant", "tenant = :s AND site = :n AND kind = :t AND seq = :n AND tag >= :s", NULL, NULL },
  { "ByTenant", "tenant = :s AND site = :n AND kind = :t AND seq = :n AND tag = :s", NULL, NULL },
  { "ByTenant", "tenant = :s AND site = :n AND seq > :n",
    "the sort key attribute seq has a condition, so each one before it needs an equality; there is none on kind",
    "seq >" },
  { "ByTenant", "tenant = :s AND site = :n AND kind = :t AND tag = :s", "there is none on seq", "tag =" },
  { "ByTenant", "tenant = :s AND site = :n AND kind > :t AND seq = :n",
    "the sort key attribute seq has a condition, so each one before it must be compared with =; "
    "compared otherwise: kind", "kind >" },
  { "ByTenant", "tenant = :s AND site = :n AND kind > :t AND seq > :n AND tag > :s",
    "compared otherwise: kind, seq", "kind >" },
  { "ByTenant", "tenant = :s AND site = :n AND kind = :t AND seq > :n AND seq < :m",
    "one condition on the sort key seq", "seq < :m" },
  { "ByTenant", "tenant = :s AND site = :n AND kind = :t AND begins_with(seq, :n)",
    "begins_with cannot be used on the number sort key seq", "begins_with" },
  { "ByTenant", "tenant = :s AND site = :m AND kind = :n", "the key kind is a string", ":n" },
  /* Not key conditions at all. */
  { "ByTenant", "tenant = :s AND site = :n AND note = :s", "note is not a key attribute", "note" },
  { "ByTenant", "tenant = :s AND site = :n AND pk = :s", "pk is not a key attribute", "pk" },
  { "ByTenant", "tenant = :s AND site = :n OR kind = :t", "cannot use OR", NULL },
  { "ByTenant", "tenant = :s AND site = :n AND kind <> :t", "cannot use <>", "kind <>" },
  { "ByTenant", "tenant = :s AND site = :n AND kind IN (:s, :t)", "cannot use IN", "kind IN" },
  /* Four and four. */
  { "Wide", DYN_MULTIKEY_WIDE_HASH, NULL, NULL },
  { "Wide", DYN_MULTIKEY_WIDE_HASH " AND r1 = :s AND r2 = :s AND r3 = :s AND r4 BETWEEN :s AND :t", NULL, NULL },
  { "Wide", "h1 = :s AND h4 = :s", "there is none on h2, h3", NULL },
  { "Wide", "r1 = :s", "there is none on h1, h2, h3, h4", NULL },
  { "Wide", DYN_MULTIKEY_WIDE_HASH " AND r3 > :s", "there is none on r1, r2", "r3 >" },
  { "Wide", DYN_MULTIKEY_WIDE_HASH " AND r2 > :s AND r3 = :s", "the sort key attribute r2 has a condition",
    "r2 >" },
  { "Wide", DYN_MULTIKEY_WIDE_HASH " AND r1 > :s AND r3 = :s", "the sort key attribute r3 has a condition, so "
    "each one before it needs an equality; there is none on r2", "r3 =" },
  { "Wide", DYN_MULTIKEY_WIDE_HASH " AND r1 > :s AND r2 = :s AND r3 = :s", "the sort key attribute r3 has a "
    "condition, so each one before it must be compared with =; compared otherwise: r1", "r1 >" },
  { "Wide", DYN_MULTIKEY_WIDE_HASH " AND r1 = :s AND r2 > :s AND r3 = :s AND r4 > :s",
    "compared otherwise: r2", "r2 >" },
  /* A single-attribute index of the same table stays as it was. */
  { "ByKind", "kind = :t AND seq > :n", NULL, NULL },
  { "ByKind", "kind = :t", NULL, NULL },
  { "ByKind", "seq > :n", "needs an equality on the partition key kind", NULL },
  { "ByKind", "kind = :t AND tenant = :s", "tenant is not a key attribute", "tenant" },
};

/* The CreateTable parameters of that table (name as %s). */
#define DYN_MULTIKEY_TABLE_JSON \
  "{\"TableName\": \"%s\", \"BillingMode\": \"PAY_PER_REQUEST\"," \
  " \"AttributeDefinitions\": [" \
  "  {\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"sk\", \"AttributeType\": \"S\"}," \
  "  {\"AttributeName\": \"tenant\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"site\", \"AttributeType\": \"N\"}," \
  "  {\"AttributeName\": \"kind\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"seq\", \"AttributeType\": \"N\"}," \
  "  {\"AttributeName\": \"tag\", \"AttributeType\": \"S\"}," \
  "  {\"AttributeName\": \"h1\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"h2\", \"AttributeType\": \"S\"}," \
  "  {\"AttributeName\": \"h3\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"h4\", \"AttributeType\": \"S\"}," \
  "  {\"AttributeName\": \"r1\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"r2\", \"AttributeType\": \"S\"}," \
  "  {\"AttributeName\": \"r3\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"r4\", \"AttributeType\": \"S\"}]," \
  " \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"sk\", \"KeyType\": \"RANGE\"}]," \
  " \"GlobalSecondaryIndexes\": [" \
  "  {\"IndexName\": \"ByTenant\", \"Projection\": {\"ProjectionType\": \"ALL\"}, \"KeySchema\": [" \
  "    {\"AttributeName\": \"tenant\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"site\", \"KeyType\": \"HASH\"}," \
  "    {\"AttributeName\": \"kind\", \"KeyType\": \"RANGE\"}, {\"AttributeName\": \"seq\", \"KeyType\": \"RANGE\"}," \
  "    {\"AttributeName\": \"tag\", \"KeyType\": \"RANGE\"}]}," \
  "  {\"IndexName\": \"Wide\", \"Projection\": {\"ProjectionType\": \"KEYS_ONLY\"}, \"KeySchema\": [" \
  "    {\"AttributeName\": \"h1\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"h2\", \"KeyType\": \"HASH\"}," \
  "    {\"AttributeName\": \"h3\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"h4\", \"KeyType\": \"HASH\"}," \
  "    {\"AttributeName\": \"r1\", \"KeyType\": \"RANGE\"}, {\"AttributeName\": \"r2\", \"KeyType\": \"RANGE\"}," \
  "    {\"AttributeName\": \"r3\", \"KeyType\": \"RANGE\"}, {\"AttributeName\": \"r4\", \"KeyType\": \"RANGE\"}]}," \
  "  {\"IndexName\": \"ByKind\", \"Projection\": {\"ProjectionType\": \"ALL\"}, \"KeySchema\": [" \
  "    {\"AttributeName\": \"kind\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"seq\", \"KeyType\": \"RANGE\"}]}]}"
