import { PUBLIC_KEYS_PATH, callUrl, calls, publicKeysSchema, sealPassword, signedCallBody, type CallName, type Envelope } from '@nest/contracts';

/**
 * The product's calls over real HTTP, signed like the browser signs them (contracts registry), for e2e
 * set-up and for reading what the screens should show. Not a mock: the same server the browser talks to.
 */
export class ApiClient {
  token = '';

  constructor(readonly baseUrl: string) {}

  /** `timestamp`: the os_timestamp to send (a password envelope is sealed for the request's own). */
  async call<D = unknown>(name: CallName, fields: Record<string, string | number> = {}, timestamp = Date.now()): Promise<Envelope<D>> {
    const def = calls[name];
    const text = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
    const body = new URLSearchParams(signedCallBody(def, text, this.token, timestamp));
    const res = await fetch(this.baseUrl + callUrl(def), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    return (await res.json()) as Envelope<D>;
  }

  /** Answers the call's data, or throws with the server's code and message. */
  async data<D = unknown>(name: CallName, fields: Record<string, string | number> = {}, timestamp = Date.now()): Promise<D> {
    const env = await this.call<D>(name, fields, timestamp);
    if (env.code !== 2000 && env.code !== 2201 && env.code !== 44020) throw new Error(`${name}: ${env.code} ${env.msg}`);
    return env.data;
  }

  static async signIn(baseUrl: string, account: string, password: string): Promise<ApiClient> {
    const keys = publicKeysSchema.parse(await (await fetch(baseUrl + PUBLIC_KEYS_PATH)).json());
    const client = new ApiClient(baseUrl);
    const timestamp = Date.now();
    const sealed = await sealPassword(password, keys.password, timestamp);
    const user = await client.data<{ token: string }>('login', { account, password: sealed }, timestamp);
    client.token = user.token;
    return client;
  }
}
