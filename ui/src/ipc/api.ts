// The only module (with ./events) that talks to the Rust backend. The wrappers are generated
// from the Rust commands into ./commands.ts (each mutating command takes one argument named
// `input`); this module gives them their app-wide name and re-exports the input types.
import { commands } from "./commands";

export type { Commands } from "./commands";
export type { ChatRef } from "../bindings/ChatRef";
export type { EmployeeRef } from "../bindings/EmployeeRef";
export type { MemoryRef } from "../bindings/MemoryRef";
export type { SetNetworkAccess } from "../bindings/SetNetworkAccess";
export type { SecretarySay } from "../bindings/SecretarySay";
export type { SecretaryActionRef } from "../bindings/SecretaryActionRef";
export type { SecretaryConfirm } from "../bindings/SecretaryConfirm";

export const api = commands;

export type Api = typeof api;
