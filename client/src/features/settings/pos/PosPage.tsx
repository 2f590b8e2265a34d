import { skipToken } from '@reduxjs/toolkit/query/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetPointsOfSaleQuery } from '../../../app/tenantApi';
import { TextField } from '../../../components/FormField';
import { AddFormPanel, DeleteConfirmModal, EditModal, ListScreen, PagedList } from '../../../components/list';
import { PageHeader } from '../../../components/PageHeader';
import { byName, matchesSearch } from '../../../lib/paging';
import type { PointOfSale } from '../../../lib/types';
import { useFeedback } from '../../../app/feedback';
import { useUsageCheck } from '../../../components/list/useUsageCheck';
import { ReactivateOffer, useListReactivation, useReactivation } from '../../../components/list/reactivation';
import {
  useCreatePosMutation,
  useDeletePosMutation,
  useGetInactivePosQuery,
  useGetPosUsageQuery,
  useReactivatePosMutation,
  useUpdatePosMutation,
} from './posApi';

const filterPos = (pos: PointOfSale, search: string) => matchesSearch(search, pos.name);

function AddPosForm() {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [createPos, { isLoading }] = useCreatePosMutation();
  const [reactivatePos] = useReactivatePosMutation();
  const reactivation = useReactivation((id) => reactivatePos(id).unwrap(), 'pos.successReactivated', () => setName(''));

  async function submit() {
    const trimmed = name.trim();
    reactivation.clear();
    if (!trimmed) {
      setError(t('pos.errorNameRequired'));
      return;
    }
    setError(null);
    try {
      await createPos({ name: trimmed }).unwrap();
      setName('');
      feedback.success('pos.successAdded');
    } catch (failure) {
      if (!reactivation.caught(failure)) setError(feedback.errorText(failure, 'pos.errorExists'));
    }
  }

  return (
    <AddFormPanel
      title={t('pos.addTitle')}
      submitLabel={t('pos.add')}
      submittingLabel={t('common.adding')}
      submitting={isLoading}
      error={error}
      notice={<ReactivateOffer reactivation={reactivation} text={t('pos.inactiveOffer')} />}
      onSubmit={() => void submit()}
    >
      <TextField label={t('pos.fields.name')} name="name" value={name} onChange={setName} required maxLength={100} />
    </AddFormPanel>
  );
}

function EditPosModal({ pos, onClose }: { pos: PointOfSale; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const [name, setName] = useState(pos.name);
  const [error, setError] = useState<string | null>(null);
  const [updatePos, { isLoading }] = useUpdatePosMutation();

  async function submit() {
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('pos.errorNameRequired'));
      return;
    }
    setError(null);
    try {
      await updatePos({ id: pos.id, name: trimmed }).unwrap();
      feedback.success('pos.successUpdated');
      onClose();
    } catch (failure) {
      setError(feedback.errorText(failure, 'pos.errorExists'));
    }
  }

  return (
    <EditModal open title={t('pos.editTitle')} onCancel={onClose} onSubmit={() => void submit()} submitting={isLoading} error={error}>
      <TextField label={t('pos.fields.name')} name="name" value={name} onChange={setName} required maxLength={100} />
    </EditModal>
  );
}

function DeletePosModal({ pos, onClose }: { pos: PointOfSale | null; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const usage = useGetPosUsageQuery(pos?.id ?? skipToken, { refetchOnMountOrArgChange: true });
  const check = useUsageCheck(usage, (u) => u.users > 0 || u.transactions > 0);
  const [deletePos, { isLoading }] = useDeletePosMutation();
  const name = pos?.name ?? '';

  async function confirm() {
    if (!pos) return;
    try {
      await deletePos(pos.id).unwrap();
      feedback.success('pos.successDeleted');
    } catch (failure) {
      feedback.failure(failure);
    } finally {
      onClose();
    }
  }

  return (
    <DeleteConfirmModal
      open={pos !== null}
      name={name}
      soft={check.soft}
      checking={check.checking}
      message={check.message}
      softText={t('pos.deleteSoft', { name })}
      hardText={t('pos.deleteHard', { name })}
      deleting={isLoading}
      onCancel={onClose}
      onConfirm={() => void confirm()}
    />
  );
}

/** /settings/pos (admin): points of sale by name. */
export function PosPage() {
  const { t } = useTranslation();
  const [showInactive, setShowInactive] = useState(false);
  const active = useGetPointsOfSaleQuery();
  const inactive = useGetInactivePosQuery(showInactive ? undefined : skipToken);
  const { data, isLoading } = showInactive ? inactive : active;
  const pointsOfSale = useMemo(() => [...(data ?? [])].sort(byName((p: PointOfSale) => p.name)), [data]);
  const [reactivatePos] = useReactivatePosMutation();
  const reactivation = useListReactivation<PointOfSale>((id) => reactivatePos(id).unwrap(), 'pos.successReactivated');
  const [editing, setEditing] = useState<PointOfSale | null>(null);
  const [deleting, setDeleting] = useState<PointOfSale | null>(null);

  return (
    <section className="page">
      <PageHeader title={t('pos.title')} subtitle={t('pos.subtitle')} />
      <ListScreen
        form={<AddPosForm />}
        list={
          <PagedList<PointOfSale>
            title={t('pos.listTitle')}
            items={pointsOfSale}
            filter={filterPos}
            getKey={(pos) => pos.id}
            itemLabel={(pos) => pos.name}
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
            onEdit={setEditing}
            onDelete={setDeleting}
            inactive={{ shown: showInactive, onShownChange: setShowInactive, ...reactivation }}
          />
        }
      />
      {editing ? <EditPosModal key={editing.id} pos={editing} onClose={() => setEditing(null)} /> : null}
      <DeletePosModal pos={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
