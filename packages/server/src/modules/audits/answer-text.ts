import { translate, type AuditAnswerCell, type AuditQuestion, type Language } from '@bulwark/domain';

/** One cell of an answer in words, in `lang`: yes/no/NA translated, option labels, the text, number or date. */
export function cellText(q: AuditQuestion, c: AuditAnswerCell, lang: Language): string {
  if (c.na) return translate(lang, 'audits.answers.na');
  switch (q.type) {
    case 'yes_no':
      return c.choice[0] ? translate(lang, `audits.answers.${c.choice[0]}`) : '';
    case 'choice':
      return c.choice.map((k) => q.options.find((o) => o.key === k)?.label ?? k).join(', ');
    case 'text':
      return c.text ?? '';
    case 'number':
      return c.number === null ? '' : String(c.number);
    case 'date':
      return c.date ?? '';
    case 'photo':
    case 'signature':
      return c.file_ids.length ? `${translate(lang, `audits.responseTypes.${q.type}`)} (${c.file_ids.length})` : '';
  }
}

/** Each cell in words; with row headers, "Row: answer". */
export function answerLines(q: AuditQuestion, cells: readonly AuditAnswerCell[], lang: Language): string[] {
  return cells.map((c, n) => (q.row_headers[n] ? `${q.row_headers[n]}: ${cellText(q, c, lang)}` : cellText(q, c, lang)));
}
