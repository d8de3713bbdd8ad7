// Joining a company server from the in-memory Cubicle (see fakeBackend.ts), with the Rust side's rules
// (crates/core/src/sign_in.rs, src-tauri/src/commands/server.rs): a sign-in is a postgres:// URL
// (`invalid_input` otherwise), checked against the server before it is kept in the keychain
// (`sign_in_refused` when no server answers there or the login is wrong, `company_missing` when the
// server has no company yet, `secret_unavailable` without a keychain), never stored or sent back with
// its password. A browser reaches no PostgreSQL server, so the fake's "network" is `companyServers`:
// the servers (and their logins) a test or the demo seeds; any other address does not answer, as a
// wrong host does not. Restarting opens what the saved sign-in says: the fake keeps its one company in
// memory, and the connection, the badge and who uses the desk follow the sign-in as after a restart.
import type { ConnectionDto } from "../../bindings/ConnectionDto";
import type { DeskUser } from "../../bindings/DeskUser";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { PersonDto } from "../../bindings/PersonDto";
import type { ServerSignIn } from "../../bindings/ServerSignIn";
import type { SignedIn } from "../../bindings/SignedIn";
import type { CommandPart } from "./commandTable";

/** A company server the fake can reach: `host:port/database`, its company (null: not set up yet) and its logins. */
export interface FakeCompanyServer {
  server: string;
  company: string | null;
  /** The server's own role (`person: null`, the boss) and the logins the boss issued to people. */
  logins: Array<{ user: string; password: string; person: string | null }>;
}

/** What of the fake backend joining a server reads and writes. */
export interface ServerHost {
  people: PersonDto[];
  desk: DeskUser;
  connectionInfo: ConnectionDto;
  keychainAvailable: boolean;
  companyServers: FakeCompanyServer[];
  /** The sign-in in the keychain, with whom it opens the company as (never sent back whole). */
  savedSignIn: { url: string; who: SignedIn } | null;
  /** When the UI said its first frame was painted (the shell logs the start-up time). */
  firstPaintAt: number | null;
  now: () => number;
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

/** As cubicle_store::db::server_label: `host:port/database` of a postgres:// URL, without user or password. */
export function serverLabel(url: string): string | null {
  if (!/^postgres(ql)?:\/\//i.test(url)) return null;
  const rest = (url.split("://")[1] ?? "").split("?")[0] ?? "";
  const at = rest.lastIndexOf("@");
  return at >= 0 ? rest.slice(at + 1) : rest;
}

/** As redact_url: the URL with its password replaced, for a message. */
const redact = (url: string) => url.replace(/(:\/\/[^:@/]*):[^@/]*@/, "$1:***@");

function signIn(host: ServerHost, input: ServerSignIn): SignedIn {
  const url = input.url.trim();
  const server = serverLabel(url);
  if (server === null) return fail("invalid_input", `a sign-in is a postgres:// URL of a company server; this is not one (${redact(url)})`);
  const userInfo = (url.split("://")[1] ?? "").split("?")[0] ?? "";
  const at = userInfo.lastIndexOf("@");
  const [user = "", password = ""] = at >= 0 ? userInfo.slice(0, at).split(":").map(decodeURIComponent) : [];
  const target = host.companyServers.find((s) => s.server === server);
  if (!target) return fail("sign_in_refused", `could not open the company with this sign-in: no answer from ${server} within 8 s`);
  const login = target.logins.find((l) => l.user === user && l.password === password);
  if (!login) return fail("sign_in_refused", `could not open the company with this sign-in: password authentication failed for user "${user}"`);
  if (target.company === null) return fail("company_missing", "this sign-in opens no company yet: the server's own role sets it up first");
  if (!host.keychainAvailable) return fail("secret_unavailable", "no OS keychain is available (org.freedesktop.secrets not provided)");
  const who: SignedIn = { server, company: target.company, person: login.person };
  host.savedSignIn = { url, who };
  return structuredClone(who);
}

function signOut(host: ServerHost): null {
  if (!host.keychainAvailable) return fail("secret_unavailable", "no OS keychain is available (org.freedesktop.secrets not provided)");
  host.savedSignIn = null;
  return null;
}

/** The app starts again on what the keychain says (CUBICLE_DATABASE_URL, the "environment", would win and stays). */
function restart(host: ServerHost): null {
  if (host.connectionInfo.source === "environment") return null;
  const who = host.savedSignIn?.who ?? null;
  host.connectionInfo = { server: who?.server ?? null, source: who ? "sign_in" : "local", signInFailed: null };
  const person = who?.person == null ? null : (host.people.find((p) => p.name === who.person) ?? null);
  host.desk = person ? { personId: person.id, canChange: false, chosen: true } : { personId: null, canChange: true, chosen: true };
  host.firstPaintAt = null;
  return null;
}

/** The shell's commands: the first paint, joining a company server, and restarting. */
export function serverCommands(host: ServerHost) {
  return {
    ui_first_paint: () => {
      host.firstPaintAt ??= host.now();
      return null;
    },
    sign_in_to_server: ({ input }) => signIn(host, input),
    sign_out_of_server: () => signOut(host),
    restart_app: () => restart(host),
  } satisfies CommandPart;
}
