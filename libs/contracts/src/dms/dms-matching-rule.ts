import { defineResource } from '@platform/kit/resource/resource.ts';
import { DmsMatchingRuleServiceService, DmsMatchingRule } from '@platform/kit/gen/platform/dms/v1/dms_matching_rule.ts';

/** How a rule's pattern is matched against a file's extracted text (dms-svc/src/matching/rule-match.ts). */
export const MATCH_TYPES = ['ANY', 'ALL', 'PHRASE', 'REGEX'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/**
 * A tenant's matching rule (docs/interface.md#matching-rules): when a file's extracted text matches
 * the pattern, a file without a category gets the rule's category. The active rules of a tenant are
 * tried by ruleOrder, then id; the first that matches is applied. A REGEX pattern is compiled by
 * PostgreSQL on every write (dms-svc/src/resources/dms-matching-rule/dms-matching-rule.hooks.ts).
 */
export const dmsMatchingRule = defineResource<DmsMatchingRule>()({
  path: 'dms-matching-rule',
  name: 'DmsMatchingRule',
  plural: 'DmsMatchingRules',
  service: 'dms',
  menu: { area: 'documents' },
  grpc: DmsMatchingRuleServiceService,
  encoder: DmsMatchingRule,
  operations: 'full',
  fields: {
    ruleName: { kind: 'string', required: true, unique: 'tenant', searchable: true, doc: 'Display name; unique within the tenant.' },
    matchType: {
      kind: 'enum',
      values: MATCH_TYPES,
      required: true,
      doc: 'ANY: any word of the pattern; ALL: every word; PHRASE: the words in this order; REGEX: a case-insensitive regular expression.',
    },
    pattern: {
      kind: 'text',
      required: true,
      maxLength: 1000,
      doc: 'The words, the phrase or the regular expression (POSIX, as PostgreSQL reads it) matched against the text; words match as search does, accents and endings aside.',
    },
    categoryId: { kind: 'long', required: true, references: 'dms-category', doc: 'The category a matching file gets (same tenant).' },
    ruleOrder: { kind: 'int', default: 100, min: 0, max: 1_000_000, doc: 'Lower rules are tried first (then by id); default 100.' },
  },
  form: {
    sections: [
      { title: { en: 'Rule', tr: 'Kural' }, fields: ['ruleName', 'ruleOrder', 'status'] },
      { title: { en: 'Match', tr: 'Eşleşme' }, fields: ['matchType', 'pattern'] },
      { title: { en: 'Result', tr: 'Sonuç' }, fields: ['categoryId'] },
    ],
  },
  labels: {
    en: {
      one: 'Matching rule',
      other: 'Matching rules',
      fields: { ruleName: 'Rule name', matchType: 'Match', pattern: 'Pattern', categoryId: 'Category', ruleOrder: 'Order' },
      values: { matchType: { ANY: 'Any word', ALL: 'All words', PHRASE: 'Exact phrase', REGEX: 'Regular expression' } },
      help: {
        pattern: 'Words separated by spaces, a phrase, or a regular expression; accents and letter case do not matter for words.',
        categoryId: 'A file whose text matches, and that has no category yet, is put here.',
        ruleOrder: 'Rules with a lower number are tried first; the first that matches applies.',
      },
    },
    tr: {
      one: 'Eşleştirme kuralı',
      other: 'Eşleştirme kuralları',
      fields: { ruleName: 'Kural adı', matchType: 'Eşleşme', pattern: 'Desen', categoryId: 'Kategori', ruleOrder: 'Sıra' },
      values: { matchType: { ANY: 'Kelimelerden biri', ALL: 'Tüm kelimeler', PHRASE: 'Tam ifade', REGEX: 'Düzenli ifade' } },
      help: {
        pattern: 'Boşlukla ayrılmış kelimeler, bir ifade ya da bir düzenli ifade; kelimelerde aksan ve büyük/küçük harf fark etmez.',
        categoryId: 'Metni eşleşen ve henüz kategorisi olmayan dosya bu kategoriye konur.',
        ruleOrder: 'Küçük numaralı kurallar önce denenir; eşleşen ilk kural uygulanır.',
      },
    },
  },
  list: {
    columns: ['ruleName', 'matchType', 'pattern', 'categoryId', 'ruleOrder', 'status'],
    filters: ['ruleName', 'matchType', 'categoryId'],
  },
});
