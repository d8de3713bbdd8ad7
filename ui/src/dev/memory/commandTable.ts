// The in-memory Cubicle's commands, typed by the generated command map (../../ipc/commands.ts,
// written by src-tauri/build.rs from the Rust commands): the backend answers through one table
// with a handler for every command the app has, each taking that command's `invoke` arguments
// and returning its result. A command added on the Rust side and not here, a handler left for a
// command that is gone, or one with the wrong argument or result type fails `tsc -b`.
import type { Commands } from "../../ipc/commands";

/** A command by its IPC name (`get_org`). */
export type CommandName = keyof Commands;
/** What `invoke` sends with the command: `{ input }`, `{ fileName }`, `{ json }` or nothing. */
export type Args<K extends CommandName> = Commands[K]["args"];
/** What the command answers. */
export type Output<K extends CommandName> = Commands[K]["output"];
/** One command's handler: the real app answers asynchronously, the fake may answer at once. */
export type Handler<K extends CommandName> = (args: Args<K>) => Output<K> | Promise<Output<K>>;
/** Every command's handler: a missing one, or one of the wrong type, does not compile. */
export type CommandTable = { [K in CommandName]: Handler<K> };

/**
 * Part of the table, for one area of the fake (chats, mail, people …): write the handlers as an
 * object literal `satisfies CommandPart` so each is typed by its command and an unknown name is
 * refused; the backend spreads the parts into one `CommandTable`, which is where a command no part
 * answers is found.
 */
export type CommandPart = Partial<CommandTable>;

/** Whether the IPC name is one of the app's commands (the table has a handler for each). */
export function isCommand(table: CommandTable, cmd: string): cmd is CommandName {
  return Object.hasOwn(table, cmd);
}

/** Runs one command's handler: the table's entry for `K` takes `K`'s arguments and gives `K`'s result. */
export function runCommand<K extends CommandName>(table: CommandTable, cmd: K, args: Args<K>): Output<K> | Promise<Output<K>> {
  const handler: Handler<K> = table[cmd];
  return handler(args);
}
