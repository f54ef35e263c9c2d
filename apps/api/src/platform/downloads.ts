/** `attachment; filename="..."` with the UTF-8 name beside an ASCII one (RFC 6266), for every file the API sends. */
export const attachmentDisposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7E]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;
