import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  base64urlToBuffer,
  bufferToBase64url,
  createPasskey,
  creationOptionsFromJSON,
  credentialToJSON,
  getPasskey,
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

describe('createPasskey and getPasskey', () => {
  const creation = { publicKey: { challenge: 'AQID', rp: { name: 'R' }, user: { id: 'BAU' } } };
  const request = { publicKey: { challenge: 'Bwg', rpId: 'localhost' } };
  const made = { toJSON: () => ({ made: true }) };

  /** Stands in for the browser's WebAuthn: PublicKeyCredential (with parsers, or none) and navigator.credentials. */
  function browser(parsers: Record<string, (json: unknown) => unknown>, answer: unknown) {
    vi.stubGlobal(
      'PublicKeyCredential',
      Object.assign(function PublicKeyCredential() {}, parsers),
    );
    const credentials = { create: vi.fn(async () => answer), get: vi.fn(async () => answer) };
    Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true });
    return credentials;
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'credentials');
  });

  it("hands the options to the browser's own parsers when it has them", async () => {
    const parseCreationOptionsFromJSON = vi.fn(() => ({ parsed: 'creation' }));
    const parseRequestOptionsFromJSON = vi.fn(() => ({ parsed: 'request' }));
    const credentials = browser(
      { parseCreationOptionsFromJSON, parseRequestOptionsFromJSON },
      made,
    );
    expect(await createPasskey(creation)).toEqual({ made: true });
    expect(parseCreationOptionsFromJSON).toHaveBeenCalledWith(creation.publicKey);
    expect(credentials.create).toHaveBeenCalledWith({ publicKey: { parsed: 'creation' } });
    expect(await getPasskey(request)).toEqual({ made: true });
    expect(parseRequestOptionsFromJSON).toHaveBeenCalledWith(request.publicKey);
    expect(credentials.get).toHaveBeenCalledWith({ publicKey: { parsed: 'request' } });
  });

  it('converts the options itself where the browser has no parser', async () => {
    const credentials = browser({}, made);
    await createPasskey(creation);
    await getPasskey(request);
    const [[created]] = credentials.create.mock.calls as unknown as [
      [{ publicKey: PublicKeyCredentialCreationOptions }],
    ];
    const [[got]] = credentials.get.mock.calls as unknown as [
      [{ publicKey: PublicKeyCredentialRequestOptions }],
    ];
    expect(list(created.publicKey.challenge)).toEqual([1, 2, 3]);
    expect(list(got.publicKey.challenge)).toEqual([7, 8]);
  });

  it('refuses a ceremony that came to no credential, saying which', async () => {
    browser({}, null);
    await expect(createPasskey(creation)).rejects.toMatchObject({
      name: 'NotAllowedError',
      message: 'no passkey was made',
    });
    await expect(getPasskey(request)).rejects.toMatchObject({
      name: 'NotAllowedError',
      message: 'no passkey was used',
    });
  });
});
