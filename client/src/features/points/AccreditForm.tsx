import { CheckCircleIcon, ClockIcon, PlusCircleIcon, SparklesIcon } from '@heroicons/react/24/outline';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorCode, apiErrorMessage, apiErrorStatus } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { isNetworkFailure, selectOnline } from '../../app/offline';
import { selectUser } from '../../app/session';
import { deviceQueue, type QueuedAccreditation } from '../../lib/offlineQueue';
import { PendingAccreditations } from './PendingAccreditations';
import {
  useAccreditApprovedMutation,
  useAccreditPointsMutation,
  useGetAccreditPreviewQuery,
  type AccreditPreview,
  type PostingResult,
} from './pointsApi';
import { useFormat } from '../../app/useFormat';
import { useIdempotentSubmit } from '../../lib/idempotency';
import { validateInvoiceAmount } from './points';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { DigitsField } from '../../components/DigitsField';
import { FormError } from '../../components/FormField';
import { CustomerLookup, useCustomerLookup } from './CustomerLookup';
import { InvoiceReferenceField } from './InvoiceReferenceField';
import { ApprovalDialog } from './ApprovalDialog';
import type { SupervisorCredentials } from '../../components/SupervisorFields';

interface Success {
  points: number;
  name: string;
  balance: number;
  /** The supervisor or admin who approved it beyond a velocity limit. */
  approvedBy: string | null;
}

/** The refusals a supervisor's approval can lift (docs/points.md, "Velocity limits"). */
const VELOCITY_CODES = new Set(['points.velocityAccreditations', 'points.velocityPoints']);

interface AccreditAttempt {
  customerId: number;
  invoiceAmount: number;
  invoiceReference: string;
}

/** Kept on the device when the till could not reach the server (docs/operations.md, "Offline till"). */
class NotKept extends Error {}

/** The pending receipt of an accreditation kept on the device: what was sold, to whom, and its code. */
function PendingReceipt({ entry }: { entry: QueuedAccreditation }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <div className="notice tone-warning form-success pending-receipt" role="status" data-testid="pending-receipt">
      <ClockIcon aria-hidden="true" />
      <div>
        <strong>{t('offline.receiptTitle')}</strong>
        <p>
          {t('offline.receiptText', {
            amount: format.currency(entry.invoiceAmount),
            name: entry.customerName,
            document: format.document(entry.customerDocument),
          })}
        </p>
        {entry.invoiceReference ? <p>{t('offline.receiptReference', { reference: entry.invoiceReference })}</p> : null}
        <p className="row-meta">{t('offline.receiptKey', { key: entry.idempotencyKey.slice(0, 8) })}</p>
      </div>
    </div>
  );
}

/** How long the amount must stay unchanged before the till asks what it earns. */
const PREVIEW_DELAY_MS = 250;

/** The points the typed invoice earns and the bonuses that apply, as the server computes them. */
function EarningPreview({ preview }: { preview: AccreditPreview }) {
  const { t } = useTranslation();
  const format = useFormat();
  const bonuses = [
    preview.campaignMultiplier !== 1 ? t('accredit.bonus.campaign', { multiplier: format.decimal(preview.campaignMultiplier) }) : null,
    preview.firstPurchaseBonus != null ? t('accredit.bonus.firstPurchase', { multiplier: format.decimal(preview.firstPurchaseBonus) }) : null,
    preview.birthdayBonus != null ? t('accredit.bonus.birthday', { multiplier: format.decimal(preview.birthdayBonus) }) : null,
  ].filter((bonus): bonus is string => bonus !== null);
  return (
    <>
      <SparklesIcon aria-hidden="true" />
      <span>{t('accredit.preview', { points: format.number(preview.points) })}</span>
      {bonuses.map((bonus) => (
        <span key={bonus} className="accredit-bonus tone-warning">
          {bonus}
        </span>
      ))}
    </>
  );
}

/**
 * Accredit flow (docs/screens.md, "The till"): find the customer, enter the invoice amount (digits only,
 * above zero) and an optional reference, see what it earns (with the bonuses that apply), credit
 * the points; the points earned are shown and the form and the customer are cleared, so the next
 * sale starts from the lookup. Used by /accreditar and by the dashboard's quick panel.
 */
export function AccreditForm({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const lookup = useCustomerLookup();
  const [accredit, { isLoading }] = useAccreditPointsMutation();
  const [accreditApproved, approvedState] = useAccreditApprovedMutation();
  const submitOnce = useIdempotentSubmit();
  const companyPrefix = useAppSelector(selectUser)?.company?.prefix ?? null;
  // An accreditation the server refused over a velocity limit, waiting for a supervisor.
  const [approval, setApproval] = useState<{ attempt: AccreditAttempt; reason: string } | null>(null);
  const [approvalError, setApprovalError] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<Success | null>(null);
  const [queued, setQueued] = useState<QueuedAccreditation | null>(null);
  const online = useAppSelector(selectOnline);
  const company = useAppSelector(selectUser)?.company?.prefix ?? '';
  const customer = lookup.customer;
  const settledAmount = useDebouncedValue(amount, PREVIEW_DELAY_MS);
  const previewFor =
    online && customer && settledAmount === amount && validateInvoiceAmount(amount) === null
      ? { customerId: customer.id, invoiceAmount: Number(amount) }
      : skipToken;
  const preview = useGetAccreditPreviewQuery(previewFor);
  const previewShown = previewFor !== skipToken && !preview.isFetching;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setSuccess(null);
    setQueued(null);
    if (!customer) {
      setError(t('dashboard.errorEnterId'));
      return;
    }
    const invalid = validateInvoiceAmount(amount);
    if (invalid) {
      setError(t(invalid));
      return;
    }
    setError(null);
    const request = { customerId: customer.id, invoiceAmount: Number(amount), invoiceReference: reference.trim() };
    // Offline, or no answer at all: kept on the device with this submit's key, sent later.
    async function keep(idempotencyKey: string): Promise<QueuedAccreditation> {
      if (!customer) throw new NotKept();
      const entry: QueuedAccreditation = {
        idempotencyKey,
        company,
        customerId: customer.id,
        customerName: customer.name,
        customerDocument: customer.document,
        invoiceAmount: request.invoiceAmount,
        invoiceReference: request.invoiceReference,
        createdAt: new Date().toISOString(),
        status: 'pending',
        attempts: 0,
      };
      try {
        await deviceQueue.put(entry);
      } catch {
        throw new NotKept();
      }
      return entry;
    }
    try {
      const outcome = await submitOnce(JSON.stringify(request), async (idempotencyKey) => {
        if (online) {
          try {
            return { posted: await accredit({ ...request, idempotencyKey }).unwrap() };
          } catch (failure) {
            if (!isNetworkFailure(failure)) throw failure;
          }
        }
        return { kept: await keep(idempotencyKey) };
      });
      if (!outcome.ran) return;
      const { kept, posted } = outcome.result;
      if (kept) {
        // The next sale must not go to this customer by mistake.
        lookup.clear();
        setAmount('');
        setReference('');
        setQueued(kept);
        return;
      }
      if (posted) accredited(posted);
    } catch (failure) {
      if (failure instanceof NotKept) {
        setError(t('offline.queueUnavailable'));
        return;
      }
      if (apiErrorStatus(failure) === 401) return;
      const reason = apiErrorMessage(failure) ?? t('redeem.errorGeneric');
      const code = apiErrorCode(failure);
      if (code && VELOCITY_CODES.has(code)) {
        setApprovalError(null);
        setApproval({ attempt: request, reason });
        return;
      }
      setError(reason);
    }
  }

  function accredited({ updatedCustomer, newTransaction }: PostingResult) {
    // The next sale must not go to this customer by mistake.
    lookup.clear();
    setSuccess({
      points: newTransaction.points,
      name: updatedCustomer.name,
      balance: updatedCustomer.points,
      approvedBy: newTransaction.approvedBy ?? null,
    });
    setAmount('');
    setReference('');
  }

  // The approved attempt is a request of its own (the refused one posted nothing), so it takes a
  // new Idempotency-Key, reused only if it is retried after a failure that may have gone through.
  async function approve(credentials: SupervisorCredentials) {
    if (!approval) return;
    const { attempt } = approval;
    setApprovalError(null);
    try {
      const fingerprint = JSON.stringify({ ...attempt, approvedBy: credentials.supervisorUsername });
      const outcome = await submitOnce(fingerprint, (idempotencyKey) =>
        accreditApproved({ ...attempt, ...credentials, idempotencyKey }).unwrap(),
      );
      if (!outcome.ran) return;
      setApproval(null);
      accredited(outcome.result);
    } catch (failure) {
      setApprovalError(apiErrorMessage(failure) ?? t('redeem.errorGeneric'));
    }
  }

  function cancelApproval() {
    // The refusal stays on the form.
    if (approval) setError(approval.reason);
    setApproval(null);
  }

  return (
    <div className={`operation ${compact ? 'operation-compact' : ''}`}>
      <CustomerLookup
        label={t('dashboard.lookup.forAccredit')}
        lookup={{
          ...lookup,
          setDocument: (digits) => {
            setSuccess(null);
            setQueued(null);
            setError(null);
            lookup.setDocument(digits);
          },
        }}
        autoFocus={!compact}
      />
      <form className="form-fields" onSubmit={(event) => void handleSubmit(event)} noValidate aria-label={t('accredit.formLabel')}>
        <DigitsField
          label={t('accredit.invoiceAmount')}
          value={amount}
          onChange={(digits) => {
            setAmount(digits);
            setSuccess(null);
          }}
          prefix={t('accredit.currencySymbol')}
          required
          disabled={!customer}
          maxLength={19}
        />
        <InvoiceReferenceField label={t('accredit.invoiceReference')} value={reference} onChange={setReference} disabled={!customer} />
        {previewShown && (preview.data || preview.error) ? (
          <p className="notice tone-info accredit-preview" data-testid="accredit-preview" aria-live="polite">
            {preview.error ? apiErrorMessage(preview.error) : preview.data ? <EarningPreview preview={preview.data} /> : null}
          </p>
        ) : null}
        <FormError message={error} />
        {success ? (
          <p className="notice tone-success form-success" role="status">
            <CheckCircleIcon aria-hidden="true" />
            {t('accredit.success', {
              points: format.number(success.points),
              name: success.name,
              balance: format.number(success.balance),
            })}
            {success.approvedBy ? ` ${t('accredit.approvedBy', { approver: success.approvedBy })}` : null}
          </p>
        ) : null}
        {queued ? <PendingReceipt entry={queued} /> : null}
        <button type="submit" className="btn btn-primary btn-block" disabled={!customer || isLoading}>
          <PlusCircleIcon aria-hidden="true" />
          {isLoading ? t('accredit.submitting') : t('accredit.submit')}
        </button>
      </form>
      <PendingAccreditations />
      {approval ? (
        <ApprovalDialog
          reason={approval.reason}
          companyPrefix={companyPrefix}
          submitting={approvedState.isLoading}
          error={approvalError}
          onCancel={cancelApproval}
          onApprove={(credentials) => void approve(credentials)}
        />
      ) : null}
    </div>
  );
}
