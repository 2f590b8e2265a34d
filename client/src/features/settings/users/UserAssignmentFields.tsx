import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/FormField';
import { useGetPointsOfSaleQuery } from '../../../app/tenantApi';
import { byName } from '../../../lib/paging';
import type { PointOfSale } from '../../../lib/types';
import { COMPANY_ROLES, isCompanyRole, posFieldState, type CompanyRole } from './userForm';

export interface UserAssignmentFieldsProps {
  role: CompanyRole | '';
  posId: string;
  onRoleChange: (role: CompanyRole | '') => void;
  onPosChange: (posId: string) => void;
  /** The name of the user's current point of sale, kept as a choice if it is no longer listed. */
  currentPosName?: string | null;
}

/** Role and point-of-sale selects; for an admin the point of sale is disabled and not applicable. */
export function UserAssignmentFields({ role, posId, onRoleChange, onPosChange, currentPosName }: UserAssignmentFieldsProps) {
  const { t } = useTranslation();
  const { data: pointsOfSale = [] } = useGetPointsOfSaleQuery();
  const pos = posFieldState(role);
  const sorted = [...pointsOfSale].sort(byName((p: PointOfSale) => p.name));

  const roleOptions = [
    ...(role === '' ? [{ value: '', label: t('users.selectRole') }] : []),
    ...COMPANY_ROLES.map((value) => ({ value, label: t(`roles.${value}`) })),
  ];
  // A point of sale deleted softly is no longer listed, but the user may still be assigned to it.
  const unlisted =
    posId !== '' && !sorted.some((p) => String(p.id) === posId)
      ? [{ value: posId, label: t('users.unlistedPos', { name: currentPosName ?? posId }) }]
      : [];
  const posOptions = pos.notApplicable
    ? [{ value: '', label: t('common.notApplicable') }]
    : [
        { value: '', label: t('users.selectPos') },
        ...sorted.map((p) => ({ value: String(p.id), label: p.name })),
        ...unlisted,
      ];

  return (
    <>
      <SelectField
        label={t('users.fields.role')}
        name="role"
        value={role}
        onChange={(value) => onRoleChange(isCompanyRole(value) ? value : '')}
        options={roleOptions}
        required
      />
      <SelectField
        label={t('users.fields.pos')}
        name="posId"
        value={pos.notApplicable ? '' : posId}
        onChange={onPosChange}
        options={posOptions}
        required={!pos.notApplicable}
        disabled={pos.disabled}
        hint={pos.notApplicable ? t('users.posNotApplicableHint') : undefined}
      />
    </>
  );
}
