import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/index.js';
import { LANGUAGES } from '../constants.js';
import { reviewDecisionBody } from './review.js';

const messageOf = (input: unknown, field: string) => {
  const r = reviewDecisionBody.safeParse(input);
  return r.success ? null : (r.error.issues.find((i) => i.path[0] === field)?.message ?? null);
};

describe('a review decision', () => {
  it('approves with or without a comment; a blank comment is none', () => {
    expect(reviewDecisionBody.parse({ approve: true })).toEqual({ approve: true, comment: null });
    expect(reviewDecisionBody.parse({ approve: true, comment: '  ' })).toEqual({ approve: true, comment: null });
    expect(reviewDecisionBody.parse({ approve: true, comment: ' Fine ' })).toEqual({ approve: true, comment: 'Fine' });
  });

  it('needs a reason to reject', () => {
    expect(messageOf({ approve: false }, 'comment')).toBe('reviews.validation.reasonRequired');
    expect(messageOf({ approve: false, comment: null }, 'comment')).toBe('reviews.validation.reasonRequired');
    expect(messageOf({ approve: false, comment: ' \n ' }, 'comment')).toBe('reviews.validation.reasonRequired');
    expect(reviewDecisionBody.parse({ approve: false, comment: 'Gas test missing' })).toEqual({
      approve: false,
      comment: 'Gas test missing',
    });
  });

  it('refuses a missing decision and an overlong comment', () => {
    expect(messageOf({ comment: 'x' }, 'approve')).toBe('validation.required');
    expect(messageOf({ approve: 'yes' }, 'approve')).toBe('validation.invalid');
    expect(messageOf({ approve: true, comment: 'x'.repeat(2001) }, 'comment')).toBe('validation.tooLong');
  });

  it('says why in every language', () => {
    for (const lang of LANGUAGES)
      expect(translate(lang, 'reviews.validation.reasonRequired')).not.toBe('reviews.validation.reasonRequired');
  });
});
