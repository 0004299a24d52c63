import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH, emailSchema, installCommonPasswordCheck, passwordProblem, passwordSchema } from './password.js';

describe('passwordProblem(): at least 8 characters with a special character', () => {
  it('the minimum length is 8', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
  });

  it.each(['abcdefg!', 'Secret#1', 'pa$$word', 'ünïcødé!', 'with space%', '!!!!!!!!', 'a'.repeat(100) + '?'])('%j is acceptable', (pw) => {
    expect(passwordProblem(pw)).toBeNull();
  });

  it.each(['', 'a!', 'abcde!1', '!!!!!!!'])('%j is too short', (pw) => {
    expect(passwordProblem(pw)).toBe('tooShort');
  });

  it.each(['abcdefgh', 'Abcdefg1', '12345678', 'abcd efgh', 'abcdefgh\t'])('%j needs a special character', (pw) => {
    expect(passwordProblem(pw)).toBe('needsSpecial');
  });
});

describe('passwordSchema', () => {
  it('accepts a valid password unchanged', () => {
    expect(passwordSchema.parse('Secret#1')).toBe('Secret#1');
  });

  it.each([
    ['short!', 'validation.password.tooShort'],
    ['longenough', 'validation.password.needsSpecial'],
    ['a!'.repeat(129), 'validation.tooLong'],
  ])('rejects %j with %s', (pw, message) => {
    const result = passwordSchema.safeParse(pw);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });

  it('rejects a non-string', () => {
    expect(passwordSchema.safeParse(12345678).success).toBe(false);
  });

  it('refuses what the installed common-password check names, with its own message', () => {
    installCommonPasswordCheck((pw) => pw === 'Password#1');
    try {
      expect(passwordSchema.safeParse('Password#1').error?.issues.map((i) => i.message)).toEqual(['validation.password.common']);
      expect(passwordSchema.safeParse('Unlisted#1').success).toBe(true);
      // The spec's rule speaks first: one message per password.
      expect(passwordSchema.safeParse('short').error?.issues.map((i) => i.message)).toEqual(['validation.password.tooShort']);
    } finally {
      installCommonPasswordCheck(null);
    }
  });
});

describe('emailSchema', () => {
  it.each([
    ['john.doe@example.com', 'john.doe@example.com'],
    ['John.Doe@Example.COM', 'john.doe@example.com'],
    ['  MIXED@Case.Org  ', 'mixed@case.org'],
    ['a+tag@sub.example.co.uk', 'a+tag@sub.example.co.uk'],
  ])('%j -> %j', (input, output) => {
    expect(emailSchema.parse(input)).toBe(output);
  });

  it.each(['', '   ', 'not-an-email', 'a@', '@example.com', 'a b@example.com', 'a@@example.com', 'a@example', 'a@.com'])(
    'rejects %j with validation.email',
    (input) => {
      const result = emailSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toContain('validation.email');
    },
  );

  it('rejects an over-long address', () => {
    const result = emailSchema.safeParse(`${'a'.repeat(250)}@example.com`);
    expect(result.success).toBe(false);
  });
});
