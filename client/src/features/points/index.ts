// The till: accrediting and redeeming points, at full screen or in the dashboard's quick panels.
// Other features use it through this file only.
export { AccreditForm } from './AccreditForm';
export { RedeemForm } from './RedeemForm';
export { OfflineSync } from './OfflineSync';
export { canReprint, canReturn, canVoid, voidNeedsSupervisor } from './points';
export {
  normalizeTransaction,
  type PostingResult,
  useCreateCustomerMutation,
  useGetRedeemableProductsQuery,
  type CustomerInput,
} from './pointsApi';
