import { describe, expect, it } from 'vitest';
import {
  base64urlToBuffer,
  bufferToBase64url,
  creationOptionsFromJSON,
  credentialToJSON,
  passkeyErrorMessage,
  requestOptionsFromJSON,
  type CredentialLike,
} from './webauthn';

const bytes = (...b: number[]) => new Uint8Array(b).buffer;
const list = (buf: ArrayBuffer | BufferSource) => [...new Uint8Array(buf as ArrayBuffer)];

describe('base64url', () => {
  it.for([
    { name: 'empty', b64: '', bytes: [] },
    { name: 'one byte (two padding chars dropped)', b64: 'AQ', bytes: [1] },
    { name: 'two bytes', b64: 'AQI', bytes: [1, 2] },
    { name: 'the url-safe letters', b64: '-_8', bytes: [0xfb, 0xff] },
    { name: 'three bytes, no padding', b64: 'AAEC', bytes: [0, 1, 2] },
  ])('$name', ({ b64, bytes: want }) => {
    expect(list(base64urlToBuffer(b64))).toEqual(want);
    expect(bufferToBase64url(new Uint8Array(want))).toBe(b64);
  });

  it('reads padded text too', () => {
    expect(list(base64urlToBuffer('AQ=='))).toEqual([1]);
  });

  it('writes a view of part of a buffer, not the whole buffer', () => {
    const whole = new Uint8Array([9, 1, 2, 9]);
    expect(bufferToBase64url(whole.subarray(1, 3))).toBe('AQI');
  });
});

describe('the options of a ceremony', () => {
  it('turns the creation options byte strings into buffers and keeps the rest', () => {
    const out = creationOptionsFromJSON({
      challenge: 'AQID',
      rp: { id: 'localhost', name: 'Robohornets' },
      user: { id: 'BAU', name: 'ana', displayName: 'Ana' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      excludeCredentials: [{ type: 'public-key', id: 'Bg' }],
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    expect(list(out.challenge)).toEqual([1, 2, 3]);
    expect(list(out.user.id)).toEqual([4, 5]);
    expect(out.user.name).toBe('ana');
    expect(list(out.excludeCredentials?.[0]?.id as ArrayBuffer)).toEqual([6]);
    expect(out.authenticatorSelection?.residentKey).toBe('required');
  });

  it('takes the whole {publicKey} too', () => {
    const out = requestOptionsFromJSON({ publicKey: { challenge: 'Bwg', rpId: 'localhost' } });
    expect(list(out.challenge)).toEqual([7, 8]);
    expect(out.rpId).toBe('localhost');
    expect(out.allowCredentials).toBeUndefined();
  });
});

describe('credentialToJSON', () => {
  const base = {
    id: 'AQ',
    rawId: bytes(1),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    getClientExtensionResults: () => ({}),
  };

  it("uses the browser's toJSON when there is one", () => {
    const cred: CredentialLike = {
      ...base,
      response: { clientDataJSON: bytes(1) } as AuthenticatorResponse,
      toJSON: () => ({ mine: true }),
    };
    expect(credentialToJSON(cred)).toEqual({ mine: true });
  });

  it('writes an attestation by hand', () => {
    const response = {
      clientDataJSON: bytes(1, 2),
      attestationObject: bytes(3),
      getTransports: () => ['internal'],
    } as unknown as AuthenticatorResponse;
    expect(credentialToJSON({ ...base, response })).toEqual({
      id: 'AQ',
      rawId: 'AQ',
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: 'AQI', attestationObject: 'Aw', transports: ['internal'] },
    });
  });

  it('writes an assertion by hand', () => {
    const response = {
      clientDataJSON: bytes(1),
      authenticatorData: bytes(2),
      signature: bytes(3),
      userHandle: bytes(4),
    } as unknown as AuthenticatorResponse;
    const json = credentialToJSON({ ...base, response }) as { response: unknown };
    expect(json.response).toEqual({
      clientDataJSON: 'AQ',
      authenticatorData: 'Ag',
      signature: 'Aw',
      userHandle: 'BA',
    });
  });
});

describe('passkeyErrorMessage', () => {
  it.for([
    { name: 'NotAllowedError', creating: false, has: 'no passkey for this site' },
    { name: 'NotAllowedError', creating: true, has: 'No passkey was made' },
    { name: 'InvalidStateError', creating: true, has: 'already holds a passkey' },
    { name: 'SecurityError', creating: false, has: 'https://' },
  ])('$name (creating: $creating)', ({ name, creating, has }) => {
    expect(passkeyErrorMessage(new DOMException('x', name), creating)).toContain(has);
  });
});
