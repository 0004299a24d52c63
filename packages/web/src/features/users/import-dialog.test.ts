import { describe, expect, it } from 'vitest';
import { rowProblems } from './import-dialog.js';

describe('the import report', () => {
  it('turns "<row>.<column>" field texts into rows sorted by row, ignoring other fields', () => {
    expect(rowProblems({ '12.email': 'Bad e-mail', '3.role': 'No role', '3.email': 'Taken', file: 'Not a workbook' })).toEqual([
      { row: 3, field: 'email', message: 'Taken' },
      { row: 3, field: 'role', message: 'No role' },
      { row: 12, field: 'email', message: 'Bad e-mail' },
    ]);
  });
});
