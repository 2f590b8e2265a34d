// The privacy notice and the customers' authorizations (docs/privacy.md). Other features use it
// through this file only.
export { ConsentFields, useCurrentNotice } from './ConsentFields';
export { ConsentsDialog } from './ConsentsDialog';
export { checkConsent, publicNoticePath } from './consent';
export type { ConsentInput, PrivacyNotice } from './privacyApi';
