// Passkey ceremonies in the browser: the server's options arrive as
// WebAuthn's JSON (byte strings in base64url) and the credential goes back as
// JSON. Browsers that can convert both ways themselves do; for the others the
// converters here do the same, once.

/** Returns the bytes of a base64url string (padding optional). */
export function base64urlToBuffer(text: string): ArrayBuffer {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** Returns bytes as base64url without padding, as WebAuthn's JSON writes them. */
export function bufferToBase64url(bytes: ArrayBuffer | ArrayBufferView): string {
  const view =
    bytes instanceof ArrayBuffer
      ? new Uint8Array(bytes)
      : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let binary = '';
  for (const b of view) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The options of a Ceremony: its `options` is the publicKey member itself,
 * though a server that sends the whole `{publicKey: …}` is understood too.
 */
function publicKeyOf<T>(options: unknown): T {
  if (options && typeof options === 'object' && 'publicKey' in options) {
    return (options as { publicKey: T }).publicKey;
  }
  return options as T;
}

/** Converts the JSON creation options of a Ceremony into what navigator.credentials.create takes. */
export function creationOptionsFromJSON(options: unknown): PublicKeyCredentialCreationOptions {
  const json = publicKeyOf<PublicKeyCredentialCreationOptionsJSON>(options);
  return {
    ...json,
    challenge: base64urlToBuffer(json.challenge),
    user: { ...json.user, id: base64urlToBuffer(json.user.id) },
    excludeCredentials: json.excludeCredentials?.map((c) => ({
      ...c,
      id: base64urlToBuffer(c.id),
    })) as PublicKeyCredentialDescriptor[] | undefined,
  } as PublicKeyCredentialCreationOptions;
}

/** Converts the JSON request options of a Ceremony into what navigator.credentials.get takes. */
export function requestOptionsFromJSON(options: unknown): PublicKeyCredentialRequestOptions {
  const json = publicKeyOf<PublicKeyCredentialRequestOptionsJSON>(options);
  return {
    ...json,
    challenge: base64urlToBuffer(json.challenge),
    allowCredentials: json.allowCredentials?.map((c) => ({
      ...c,
      id: base64urlToBuffer(c.id),
    })) as PublicKeyCredentialDescriptor[] | undefined,
  } as PublicKeyCredentialRequestOptions;
}

/** What the converters need of a credential: PublicKeyCredential's members, toJSON optional. */
export interface CredentialLike {
  id: string;
  rawId: ArrayBuffer;
  type: string;
  authenticatorAttachment: string | null;
  response: AuthenticatorResponse;
  getClientExtensionResults(): AuthenticationExtensionsClientOutputs;
  toJSON?: () => unknown;
}

/**
 * Returns a credential as WebAuthn's JSON, what the .../finish calls take:
 * the browser's own toJSON when it has one, else the same fields by hand.
 */
export function credentialToJSON(cred: CredentialLike): unknown {
  if (typeof cred.toJSON === 'function') return cred.toJSON();
  const r = cred.response as AuthenticatorResponse &
    Partial<AuthenticatorAttestationResponse & AuthenticatorAssertionResponse>;
  const response: Record<string, unknown> = {
    clientDataJSON: bufferToBase64url(r.clientDataJSON),
  };
  if (r.attestationObject) {
    response.attestationObject = bufferToBase64url(r.attestationObject);
    if (typeof r.getTransports === 'function') response.transports = r.getTransports();
  }
  if (r.authenticatorData) response.authenticatorData = bufferToBase64url(r.authenticatorData);
  if (r.signature) response.signature = bufferToBase64url(r.signature);
  if (r.userHandle) response.userHandle = bufferToBase64url(r.userHandle);
  return {
    id: cred.id,
    rawId: bufferToBase64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment ?? undefined,
    clientExtensionResults: cred.getClientExtensionResults(),
    response,
  };
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

/**
 * PublicKeyCredential's static members where the browser has them: its own
 * parsers of the options' JSON know every member of its WebAuthn, so the
 * converters above only stand in where it has none.
 */
function browserParsers(): Partial<typeof PublicKeyCredential> {
  return typeof PublicKeyCredential === 'function' ? PublicKeyCredential : {};
}

/** The credential a ceremony came to, as JSON for .../finish; none is a refusal that says what was not done. */
function finished(cred: Credential | null, refusal: string): unknown {
  if (!cred) throw new DOMException(refusal, 'NotAllowedError');
  return credentialToJSON(cred as PublicKeyCredential);
}

/** Creates a passkey from a Ceremony's options and returns it as JSON for .../finish. */
export async function createPasskey(options: unknown): Promise<unknown> {
  const publicKey =
    browserParsers().parseCreationOptionsFromJSON?.(publicKeyOf(options)) ??
    creationOptionsFromJSON(options);
  return finished(await navigator.credentials.create({ publicKey }), 'no passkey was made');
}

/** Asks for a passkey with a Ceremony's options and returns the assertion as JSON for .../finish. */
export async function getPasskey(options: unknown): Promise<unknown> {
  const publicKey =
    browserParsers().parseRequestOptionsFromJSON?.(publicKeyOf(options)) ??
    requestOptionsFromJSON(options);
  return finished(await navigator.credentials.get({ publicKey }), 'no passkey was used');
}

/**
 * Says in a sentence why a passkey ceremony failed in the browser (the
 * server's refusals carry their own sentence), for what: "sign in", "enrol".
 */
export function passkeyErrorMessage(err: unknown, creating: boolean): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : '';
  switch (name) {
    case 'NotAllowedError':
      return creating
        ? 'No passkey was made: it was cancelled or took too long. Try again.'
        : 'No passkey was used: it was cancelled, took too long, or this device has no passkey for this site. Try again, or ask an admin for an invitation.';
    case 'InvalidStateError':
      return 'This device already holds a passkey of yours for this site.';
    case 'SecurityError':
      return 'Passkeys need a secure address: open the console at https://… (or http://localhost for development).';
    case 'AbortError':
      return 'The passkey request was cancelled.';
    case 'NotSupportedError':
      return 'This device cannot make a passkey of the kind the site needs.';
    default:
      return err instanceof Error && err.message ? err.message : 'The passkey did not work.';
  }
}
