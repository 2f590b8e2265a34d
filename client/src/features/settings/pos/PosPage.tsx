import { skipToken } from '@reduxjs/toolkit/query/react';
import { useTranslation } from 'react-i18next';
import { useGetPointsOfSaleQuery } from '../../../app/tenantApi';
import { TextField } from '../../../components/FormField';
import {
  AddFormPanel,
  type Checked,
  EditModal,
  ListScreen,
  PagedList,
  RecordDialogs,
  USAGE_QUERY_OPTIONS,
  useAddForm,
  useEditForm,
  useRecordList,
  useShownRecords,
} from '../../../components/list';
import { matchesSearch } from '../../../lib/paging';
import type { PointOfSale } from '../../../lib/types';
import {
  useCreatePosMutation,
  useDeletePosMutation,
  useGetInactivePosQuery,
  useGetPosUsageQuery,
  useReactivatePosMutation,
  useUpdatePosMutation,
} from './posApi';

const posName = (pos: PointOfSale) => pos.name;
const filterPos = (pos: PointOfSale, search: string) => matchesSearch(search, pos.name);

/** The name is required. */
function checkPosName(name: string): Checked<{ name: string }> {
  const trimmed = name.trim();
  return trimmed ? { ok: true, body: { name: trimmed } } : { ok: false, error: 'pos.errorNameRequired' };
}

function PosNameField({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const { t } = useTranslation();
  return <TextField label={t('pos.fields.name')} name="name" value={value} onChange={onChange} required maxLength={100} />;
}

function AddPosForm() {
  const { t } = useTranslation();
  const [createPos] = useCreatePosMutation();
  const [reactivatePos] = useReactivatePosMutation();
  const { values, setValues, panel } = useAddForm({
    empty: '',
    check: checkPosName,
    create: (body) => createPos(body).unwrap(),
    reactivate: (id) => reactivatePos(id).unwrap(),
    texts: { added: 'pos.successAdded', reactivated: 'pos.successReactivated', conflict: 'pos.errorExists', inactiveOffer: 'pos.inactiveOffer' },
  });

  return (
    <AddFormPanel title={t('pos.addTitle')} submitLabel={t('pos.add')} {...panel}>
      <PosNameField value={values} onChange={setValues} />
    </AddFormPanel>
  );
}

function EditPosModal({ pos, onClose }: { pos: PointOfSale; onClose: () => void }) {
  const { t } = useTranslation();
  const [updatePos] = useUpdatePosMutation();
  const { values, setValues, form } = useEditForm({
    initial: pos.name,
    check: checkPosName,
    save: (body) => updatePos({ id: pos.id, ...body }).unwrap(),
    success: 'pos.successUpdated',
    conflictKey: 'pos.errorExists',
    onSaved: onClose,
  });

  return (
    <EditModal open title={t('pos.editTitle')} onCancel={onClose} {...form}>
      <PosNameField value={values} onChange={setValues} />
    </EditModal>
  );
}

/** /settings/pos (admin): points of sale by name. */
export function PosPage() {
  const { t } = useTranslation();
  const [reactivatePos] = useReactivatePosMutation();
  const [deletePos] = useDeletePosMutation();
  const records = useRecordList<PointOfSale>({
    reactivate: (id) => reactivatePos(id).unwrap(),
    reactivated: 'pos.successReactivated',
    remove: (id) => deletePos(id).unwrap(),
    nameOf: posName,
  });
  const active = useGetPointsOfSaleQuery();
  const inactive = useGetInactivePosQuery(records.showInactive ? undefined : skipToken);
  const { items: pointsOfSale, isLoading } = useShownRecords(records.showInactive, active, inactive, posName);
  const usage = useGetPosUsageQuery(records.usageArg, USAGE_QUERY_OPTIONS);

  return (
    <ListScreen
      title={t('pos.title')}
      subtitle={t('pos.subtitle')}
      form={<AddPosForm />}
      list={
        <PagedList<PointOfSale>
          {...records.rows}
          title={t('pos.listTitle')}
          items={pointsOfSale}
          filter={filterPos}
          searchPlaceholder={t('pos.searchPlaceholder')}
          emptyText={isLoading ? t('common.loading') : t('pos.empty')}
          noResultsText={t('pos.noResults')}
          renderItem={(pos) => (
            <div className="entity-row">
              <div className="entity-row-text">
                <span className="row-title">{pos.name}</span>
                <span className="row-meta">{t('settings.idValue', { id: pos.id })}</span>
              </div>
            </div>
          )}
        />
      }
    >
      <RecordDialogs
        records={records}
        renderEdit={(pos, onClose) => <EditPosModal pos={pos} onClose={onClose} />}
        usage={usage}
        hasRelated={(u) => u.users > 0 || u.transactions > 0}
        texts={{ soft: 'pos.deleteSoft', hard: 'pos.deleteHard', deleted: 'pos.successDeleted' }}
      />
    </ListScreen>
  );
}
