import {
  ROLE_FLAGS,
  roleColumnState,
  roleFlagsOf,
  roleModuleKey,
  roleRowState,
  setRoleColumn,
  setRoleRow,
  toggleRoleFlag,
  type RoleFlag,
  type RoleMatrixRow,
} from '@bulwark/domain';
import { Checkbox, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './roles.module.css';

type Props = {
  rows: RoleMatrixRow[];
  onChange?: (rows: RoleMatrixRow[]) => void;
  /** Read-only: the same grid, every box disabled. */
  readOnly?: boolean;
};

/**
 * The rights grid: one row per module, one column per right. Workflow columns (revoke ... approve)
 * have a box only on workflow modules. Each row and each column has a select-all box; every box is a
 * labelled native checkbox, so Tab and Space work. The header stays in view while the grid scrolls,
 * and the grid scrolls sideways on a phone instead of squeezing.
 */
export function RoleMatrix({ rows, onChange, readOnly }: Props) {
  const { t } = useTranslation();
  const moduleName = (row: RoleMatrixRow) => t(`roles.modules.${roleModuleKey(row.name)}`);
  const rightName = (flag: RoleFlag) => t(`roles.rights.${flag}`);
  const disabled = readOnly || !onChange;
  const set = (next: RoleMatrixRow[]) => onChange?.(next);

  return (
    <div className={classes.matrixScroll} role="region" aria-label={t('roles.form.matrixTitle')} tabIndex={0}>
      <Table className={classes.matrix} withColumnBorders verticalSpacing={6} horizontalSpacing="xs">
        <Table.Thead className={classes.matrixHead}>
          <Table.Tr>
            <Table.Th scope="col" className={classes.moduleCell}>
              {t('roles.form.module')}
            </Table.Th>
            <Table.Th scope="col" ta="center">
              {t('roles.form.all')}
            </Table.Th>
            {ROLE_FLAGS.map((flag) => {
              const state = roleColumnState(rows, flag);
              return (
                <Table.Th key={flag} scope="col" ta="center">
                  <Text size="xs" fw={600} mb={4}>
                    {rightName(flag)}
                  </Text>
                  <Checkbox
                    size="xs"
                    className={classes.center}
                    aria-label={t('roles.form.columnAll', { right: rightName(flag) })}
                    checked={state === 'all'}
                    indeterminate={state === 'some'}
                    disabled={disabled}
                    onChange={(e) => set(setRoleColumn(rows, flag, e.currentTarget.checked))}
                  />
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const state = roleRowState(row);
            const offered = roleFlagsOf(row.name);
            const replace = (next: RoleMatrixRow) => set(rows.map((r, i) => (i === index ? next : r)));
            return (
              <Table.Tr key={row.name}>
                <Table.Th scope="row" className={classes.moduleCell}>
                  {moduleName(row)}
                </Table.Th>
                <Table.Td ta="center">
                  <Checkbox
                    size="sm"
                    className={classes.center}
                    aria-label={t('roles.form.rowAll', { module: moduleName(row) })}
                    checked={state === 'all'}
                    indeterminate={state === 'some'}
                    disabled={disabled}
                    onChange={(e) => replace(setRoleRow(row, e.currentTarget.checked))}
                  />
                </Table.Td>
                {ROLE_FLAGS.map((flag) => (
                  <Table.Td key={flag} ta="center">
                    {offered.includes(flag) ? (
                      <Checkbox
                        size="sm"
                        className={classes.center}
                        aria-label={t('roles.form.cell', { right: rightName(flag), module: moduleName(row) })}
                        checked={row[flag]}
                        disabled={disabled}
                        onChange={(e) => replace(toggleRoleFlag(row, flag, e.currentTarget.checked))}
                      />
                    ) : (
                      <Text
                        component="span"
                        c="dimmed"
                        size="sm"
                        title={t('roles.form.notApplicable')}
                        aria-label={t('roles.form.notApplicable')}
                      >
                        –
                      </Text>
                    )}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </div>
  );
}
