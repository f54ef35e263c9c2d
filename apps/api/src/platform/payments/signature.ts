/** The payment gateway's events are signed the way webhooks are (platform/signature.ts). */
export { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, signPayload, verifySignature } from '../signature.js';
