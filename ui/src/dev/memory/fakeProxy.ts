// People's proxies in the in-memory Cubicle (see fakeBackend.ts), with the Rust side's rules and
// words (crates/core/src/proxy.rs, proxy/parse.rs, proxy/words.rs): a person tells their proxy what
// they want; it asks, tells or answers another person in the chat between the two (and tells that
// person's proxy conversation), tells an employee in their department's chat, gives a task to an
// employee the person answers for, lists the approvals waiting for the person, or says what it can
// do. What it wrote in the person's name can be corrected by them, once. Every turn sends
// `proxy_conversation` to each person it concerns. The fake does not mask private details (the Rust
// side masks them before they go to someone else): it shows none.
import type { ChatMessageDto } from "../../bindings/ChatMessageDto";
import type { CorrectProxyLine } from "../../bindings/CorrectProxyLine";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { Language } from "../../bindings/Language";
import type { PersonDto } from "../../bindings/PersonDto";
import type { ProxyCard } from "../../bindings/ProxyCard";
import type { ProxyLineDto } from "../../bindings/ProxyLineDto";
import type { ProxySpeaker } from "../../bindings/ProxySpeaker";
import type { ProxyTurn } from "../../bindings/ProxyTurn";
import type { SayToProxy } from "../../bindings/SayToProxy";
import type { WrittenLine } from "../../bindings/WrittenLine";
import type { CommandPart } from "./commandTable";
import { FakeTools } from "./fakeTools";

/** As on the Rust side (MAX_REQUEST_CHARS). */
const MAX_REQUEST_CHARS = 2000;

type Verb = "ask" | "tell" | "answer" | "have";

/** parse.rs: English openings, longest first within a verb; then the Chinese ones. */
const VERBS: Array<[string, Verb]> = [
  ["check with ", "ask"],
  ["find out from ", "ask"],
  ["ask ", "ask"],
  ["let ", "tell"],
  ["tell ", "tell"],
  ["inform ", "tell"],
  ["remind ", "tell"],
  ["message ", "tell"],
  ["reply to ", "answer"],
  ["answer ", "answer"],
  ["问一下", "ask"],
  ["问问", "ask"],
  ["请教", "ask"],
  ["问", "ask"],
  ["告诉", "tell"],
  ["通知", "tell"],
  ["提醒", "tell"],
  ["回复", "answer"],
  ["答复", "answer"],
  ["让", "have"],
  ["叫", "have"],
];
const OPENINGS = ["please ", "could you ", "can you ", "would you ", "请帮我", "帮我", "麻烦", "请"];
const WAITING = ["what's waiting", "what is waiting", "anything for me", "what do i need to", "my approvals", "my queue", "待我", "等我", "我的审批", "有什么要我"];
/** Words of the secretary's boss-only intents, which a proxy leaves to the boss. */
const BOSS_ONLY = /\b(hire|fire|let go|dismiss|transfer|create a department|rename|delete the department|policy|invite|convene|meeting)\b|招聘|招一个|开除|解雇|调到|新建.*部门|部门改名|删除.*部门|审批策略|邀请|开会/i;

type Request =
  | { type: "ask" | "tell" | "answer" | "task"; to: string; what: string }
  | { type: "waiting" }
  | { type: "boss_only" }
  | { type: "unclear" };

const pick = (lang: Language, en: string, zh: string) => (lang === "zh-CN" ? zh : en);

/** words.rs */
const words = {
  asked(lang: Language, person: string, what: string) {
    if (lang === "zh-CN") return `${person}想问：${what}`;
    return ["for ", "about ", "whether ", "if ", "to "].some((w) => what.toLowerCase().startsWith(w)) ? `${person} asks ${what}` : `${person} asks: ${what}`;
  },
  said: (what: string) => (what === "" ? "" : what[0]!.toUpperCase() + what.slice(1)),
  doneAsk: (l: Language, to: string, p: string) => pick(l, `I asked ${to} in your name: “${p}”. I'll tell you when they answer.`, `我已替你问了${to}：“${p}”。有回复我会告诉你。`),
  doneTell: (l: Language, to: string, p: string) => pick(l, `I told ${to} in your name: “${p}”.`, `我已替你告诉${to}：“${p}”。`),
  doneAnswer: (l: Language, to: string, p: string) => pick(l, `I answered ${to} in your name: “${p}”.`, `我已替你回复${to}：“${p}”。`),
  doneTask: (l: Language, to: string, what: string, task: number) => pick(l, `I gave ${to} a task in your name (#${task}): ${what}.`, `我已替你给${to}安排了任务（#${task}）：${what}。`),
  cameInAsk: (l: Language, from: string, p: string) =>
    pick(l, `${from} asks, through their proxy: “${p}”. To answer, say “answer ${from}: …”.`, `${from}（通过代理）问：“${p}”。回复请说“回复${from}：……”。`),
  cameInTell: (l: Language, from: string, p: string) => pick(l, `${from} tells you, through their proxy: “${p}”.`, `${from}（通过代理）告诉你：“${p}”。`),
  cameInAnswer: (l: Language, from: string, p: string) => pick(l, `${from} answered, through their proxy: “${p}”.`, `${from}（通过代理）回复：“${p}”。`),
  cameInCorrection: (l: Language, from: string, t: string) => pick(l, `${from} corrected what their proxy wrote: “${t}”.`, `${from}更正了代理替其写的话：“${t}”。`),
  notYours: (l: Language, employee: string, approver: string) =>
    pick(
      l,
      `${employee} is not someone you answer for (${approver} does), so I can't give them a task in your name. I can ask ${approver} for you.`,
      `${employee}不归你负责（由${approver}负责），我不能以你的名义给其安排任务。我可以替你去问${approver}。`,
    ),
  bossOnly: (l: Language, boss: string) =>
    pick(
      l,
      `Only the boss (${boss}) can change the company: hires, departments, policies, people and meetings. I can pass your request on to ${boss} if you tell me “tell ${boss} …”.`,
      `只有老板（${boss}）能调整公司：招聘、部门、策略、人员和会议。你可以说“告诉${boss}……”，我替你转达。`,
    ),
  unknownName: (l: Language, name: string) => pick(l, `I don't know anyone called ${name} here.`, `公司里没有叫${name}的人。`),
  noChat: (l: Language, name: string) => pick(l, `${name} is in no department, so there is no chat where I can tell them.`, `${name}不属于任何部门，没有可以转告的群。`),
  nothingWaiting: (l: Language) => pick(l, "Nothing waits for you.", "没有等你处理的事。"),
  waiting: (l: Language, items: string[]) => pick(l, `Waiting for your decision: ${items.join("; ")}.`, `等你决定：${items.join("；")}。`),
  help: (l: Language) =>
    pick(
      l,
      "I act in your name. Try “ask Sam for an estimate of …”, “answer Lin: …”, “tell Mia …”, “ask Mia to …” (for people you answer for) or “what's waiting for me?”.",
      "我以你的名义行事。可以说“问一下Sam……”、“回复林：……”、“告诉Mia……”、“让Mia……”（限你负责的人）或“有什么要我审批的吗”。",
    ),
};

/** parse.rs `clean`: the words after the name, without the joining ones. */
function clean(tail: string, verb: Verb): string {
  let t = tail.replace(/^[\s,:，：、]+/, "");
  const drops = verb === "tell" ? ["know that ", "know ", "that "] : verb === "answer" ? ["that "] : ["一下", "to "];
  const drop = drops.find((d) => t.toLowerCase().startsWith(d));
  if (drop) t = t.slice(drop.length);
  return t.trim().replace(/[.。]+$/, "").trim();
}

/** parse.rs `parse`: a person's name is taken before an employee's, the longest first. */
function parse(text: string, people: string[], employees: string[]): Request {
  const lower = text.toLowerCase();
  if (WAITING.some((w) => lower.includes(w))) return { type: "waiting" };
  let rest = text.trim();
  for (let o = OPENINGS.find((x) => rest.toLowerCase().startsWith(x)); o; o = OPENINGS.find((x) => rest.toLowerCase().startsWith(x))) {
    rest = rest.slice(o.length).trimStart();
  }
  const verb = VERBS.find(([v]) => rest.toLowerCase().startsWith(v));
  if (verb) {
    const after = rest.slice(verb[0].length).trimStart();
    const names = [...people.map((n) => ({ n, person: true })), ...employees.map((n) => ({ n, person: false }))]
      .filter(({ n }) => n !== "" && after.toLowerCase().startsWith(n.toLowerCase()))
      .sort((a, b) => b.n.length - a.n.length);
    const named = names[0];
    if (named) {
      const tail = after.slice(named.n.length);
      const what = clean(tail, verb[1]);
      if (what !== "") {
        const to = named.n;
        const v = verb[1];
        if ((v === "ask" || v === "have") && named.person) return { type: "ask", to, what };
        if ((v === "ask" && /^\s*to\b/i.test(tail)) || v === "have") return { type: "task", to, what };
        if (v === "answer" && named.person) return { type: "answer", to, what };
        return { type: "tell", to, what };
      }
    }
  }
  if (BOSS_ONLY.test(text)) return { type: "boss_only" };
  return { type: "unclear" };
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

/** What a turn comes to: the reply, and what is posted in the person's name (and who hears of it). */
interface Plan {
  reply: string;
  post?: { chatId: number | { person: PersonDto }; text: string; heard?: { person: PersonDto; line: string } };
}

/** Proxies on top of the tools; FakeBackend adds the rest. */
export abstract class FakeProxies extends FakeTools {
  /** The people besides the boss, with what they answer for (see fakePeople.ts). */
  people: PersonDto[] = [];
  /** Every person's conversation with their proxy, oldest first. */
  proxyLines: ProxyLineDto[] = [];

  /** The proxy commands. */
  protected proxyCommands() {
    return {
      proxy_card: ({ input }) => this.proxyCard(input.personId),
      proxy_conversation: ({ input }) => structuredClone(this.proxyLines.filter((l) => l.personId === this.personOf(input.personId).id)),
      proxy_written: ({ input }) => this.written(input.personId),
      say_to_proxy: ({ input }) => this.sayToProxy(input),
      correct_proxy_line: ({ input }) => this.correctProxyLine(input),
    } satisfies CommandPart;
  }

  private proxyAt(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  private personOf(id: number): PersonDto {
    if (!this.company) fail("company_missing", "no company has been set up");
    return this.people.find((p) => p.id === id) ?? fail("not_found", `person ${id} does not exist`);
  }

  private staff() {
    return this.employees.filter((e) => e.status !== "fired");
  }

  // ---- Seeding ----

  /** A line of a person's conversation with their proxy, for seeding (no event). */
  addProxyLine(personId: number, speaker: ProxySpeaker, text: string, chatMessageId: number | null = null): ProxyLineDto {
    const line: ProxyLineDto = { id: this.nextId++, personId, at: this.proxyAt(), speaker, text, chatMessageId, traceId: null };
    this.proxyLines.push(line);
    return line;
  }

  /** A line a person (or, `corrects` null and `byProxy`, their proxy) wrote in a chat. */
  protected postAsPerson(chatId: number, person: PersonDto, text: string, byProxy: boolean, corrects: number | null = null): ChatMessageDto {
    const message: ChatMessageDto = {
      id: this.nextId++,
      chatId,
      senderKind: byProxy ? "proxy" : "person",
      senderEmployeeId: null,
      senderPersonId: person.id,
      senderName: person.name,
      text,
      mentions: this.staff()
        .filter((e) => text.includes(`@${e.name}`))
        .map((e) => e.id),
      traceId: null,
      createdAt: this.proxyAt(),
      correctsId: corrects,
    };
    this.chatMessages.push(message);
    return message;
  }

  // ---- Commands ----

  private proxyCard(personId: number): ProxyCard {
    const person = this.personOf(personId);
    const lang = person.language;
    const boss = this.company?.bossName ?? "";
    return structuredClone({
      person,
      name: pick(lang, `${person.name}'s proxy`, `${person.name}的代理`),
      answersFor: [
        ...this.departments.filter((d) => person.departments.includes(d.id)).map((d) => d.name),
        ...this.staff()
          .filter((e) => person.employees.includes(e.id))
          .map((e) => e.name),
      ],
      may: [
        pick(lang, "ask, tell and answer other people in its person's name", "以本人名义向其他人提问、告知和答复"),
        pick(lang, "tell employees something in their department's chat", "在员工所在部门群里转告消息"),
        pick(lang, "give tasks to the employees its person answers for", "给本人负责的员工安排任务"),
        person.approvalPolicy === "auto"
          ? pick(lang, "let the approvals routed to its person run without asking (their policy is auto)", "按本人的自动策略放行路由给本人的审批")
          : pick(lang, "list the approvals waiting for its person, who decides them", "列出等本人决定的审批，由本人决定"),
      ],
      mayNot: [
        pick(lang, "answer or commit for its person on its own", "不经本人同意替其答复或承诺"),
        pick(lang, `change the company (only ${boss} may)`, `调整公司（只有${boss}可以）`),
        pick(lang, "give tasks to employees its person does not answer for", "给本人不负责的员工安排任务"),
      ],
    });
  }

  /** Newest first, each with the person's own line that replaced it. */
  private written(personId: number): WrittenLine[] {
    const person = this.personOf(personId);
    return structuredClone(
      this.chatMessages
        .filter((m) => m.senderKind === "proxy" && m.senderPersonId === person.id)
        .reverse()
        .map((message) => ({ message, correctedBy: this.chatMessages.find((c) => c.correctsId === message.id)?.id ?? null })),
    );
  }

  /** Who decides for an employee: the person answering for them or their department (up the tree), else the boss. */
  private approverOf(employeeId: number): PersonDto | null {
    const direct = this.people.find((p) => p.employees.includes(employeeId));
    if (direct) return direct;
    for (let d = this.employees.find((e) => e.id === employeeId)?.departmentId ?? null; d !== null; ) {
      const dept = d;
      const person = this.people.find((p) => p.departments.includes(dept));
      if (person) return person;
      d = this.departments.find((x) => x.id === dept)?.parentId ?? null;
    }
    return null;
  }

  private plan(me: PersonDto, text: string): Plan {
    const lang = me.language;
    const boss = this.company?.bossName ?? "";
    const others = this.people.filter((p) => p.id !== me.id);
    const request = parse(
      text,
      others.map((p) => p.name),
      this.staff().map((e) => e.name),
    );
    const personNamed = (n: string) => others.find((p) => p.name.toLowerCase() === n.toLowerCase());
    const employeeNamed = (n: string) => this.staff().find((e) => e.name.toLowerCase() === n.toLowerCase());
    switch (request.type) {
      case "waiting": {
        const pending = this.approvals.filter((a) => a.status === "waiting" && a.approverId === me.id);
        if (pending.length === 0) return { reply: words.nothingWaiting(lang) };
        return { reply: words.waiting(lang, pending.map((a) => `#${a.id} ${a.requesterName}: ${a.summary}`)) };
      }
      case "boss_only":
        return { reply: words.bossOnly(lang, boss) };
      case "unclear":
        return { reply: words.help(lang) };
      case "ask":
      case "answer":
      case "tell": {
        const other = personNamed(request.to);
        if (other) {
          const posted = request.type === "ask" ? words.asked(lang, me.name, request.what) : words.said(request.what);
          const [reply, heard] =
            request.type === "ask"
              ? [words.doneAsk(lang, other.name, posted), words.cameInAsk(other.language, me.name, posted)]
              : request.type === "answer"
                ? [words.doneAnswer(lang, other.name, posted), words.cameInAnswer(other.language, me.name, posted)]
                : [words.doneTell(lang, other.name, posted), words.cameInTell(other.language, me.name, posted)];
          return { reply, post: { chatId: { person: other }, text: posted, heard: { person: other, line: heard } } };
        }
        const e = employeeNamed(request.to);
        if (!e) return { reply: words.unknownName(lang, request.to) };
        const chat = e.departmentId === null ? undefined : this.departmentChat(e.departmentId);
        if (!chat) return { reply: words.noChat(lang, e.name) };
        const posted = `@${e.name} ${words.said(request.what)}`;
        return { reply: words.doneTell(lang, e.name, posted), post: { chatId: chat.id, text: posted } };
      }
      case "task": {
        const e = employeeNamed(request.to);
        if (!e) return { reply: words.unknownName(lang, request.to) };
        const approver = this.approverOf(e.id);
        if (approver?.id !== me.id) return { reply: words.notYours(lang, e.name, approver?.name ?? boss) };
        const trace = this.addTrace(text, { origin: "proxy" });
        const task = this.addWorkTask(e.id, request.what, { traceId: trace.id, createdBy: "person" });
        this.emit({ type: "work_changed" });
        return { reply: words.doneTask(lang, e.name, request.what, task.id) };
      }
    }
  }

  /** The chat between two people, made on first use. */
  private peopleChat(me: PersonDto, other: PersonDto): number {
    const name = (a: PersonDto, b: PersonDto) => `${a.name} · ${b.name}`;
    const existing = this.chats.find((c) => c.kind === "people" && (c.name === name(me, other) || c.name === name(other, me)));
    if (existing) return existing.id;
    const chat = this.addChat("people", name(me, other), [], { createdAt: this.proxyAt() });
    this.emit({ type: "chat_changed", chatId: chat.id });
    return chat.id;
  }

  private checked(text: string): string {
    const t = text.trim();
    if (t === "") fail("invalid_input", "say something first");
    if (Array.from(t).length > MAX_REQUEST_CHARS) fail("invalid_input", `a request can be at most ${MAX_REQUEST_CHARS} characters`);
    return t;
  }

  private sayToProxy(input: SayToProxy): ProxyTurn {
    const text = this.checked(input.text);
    const me = this.personOf(input.personId);
    const plan = this.plan(me, text);
    const said = this.addProxyLine(me.id, "person", text);
    let posted: ChatMessageDto | null = null;
    const heard: number[] = [];
    if (plan.post) {
      const target = plan.post.chatId;
      const chatId = typeof target === "number" ? target : this.peopleChat(me, target.person);
      posted = this.postAsPerson(chatId, me, plan.post.text, true);
      if (plan.post.heard) {
        this.addProxyLine(plan.post.heard.person.id, "proxy", plan.post.heard.line, posted.id);
        heard.push(plan.post.heard.person.id);
      }
    }
    const reply = this.addProxyLine(me.id, "proxy", plan.reply, posted?.id ?? null);
    for (const personId of [me.id, ...heard]) this.emit({ type: "proxy_conversation", personId });
    if (posted) this.emit({ type: "chat_message_posted", chatId: posted.chatId, messageId: posted.id });
    return structuredClone({ said, reply, posted });
  }

  private correctProxyLine(input: CorrectProxyLine): ChatMessageDto {
    const text = this.checked(input.text);
    const me = this.personOf(input.personId);
    const original = this.chatMessages.find((m) => m.id === input.messageId) ?? fail("not_found", `message ${input.messageId} does not exist`);
    if (original.senderKind !== "proxy") fail("invalid_input", `message ${original.id} was not written by a proxy`);
    if (original.senderPersonId !== me.id) {
      const person = this.people.find((p) => p.id === original.senderPersonId)?.name ?? "";
      fail("not_your_decision", `only ${person} can correct what their proxy wrote in their name`);
    }
    if (this.chatMessages.some((m) => m.correctsId === original.id)) fail("invalid_input", `message ${original.id} was already corrected`);
    const m = this.postAsPerson(original.chatId, me, text, false, original.id);
    // Whoever heard of the original (the other person of a people chat) hears of the correction.
    const listeners = this.people.filter(
      (p) => p.id !== me.id && this.proxyLines.some((l) => l.personId === p.id && l.chatMessageId !== null && this.chatMessages.find((x) => x.id === l.chatMessageId)?.chatId === original.chatId),
    );
    for (const p of listeners) this.addProxyLine(p.id, "proxy", words.cameInCorrection(p.language, me.name, text), m.id);
    for (const personId of [me.id, ...listeners.map((p) => p.id)]) this.emit({ type: "proxy_conversation", personId });
    this.emit({ type: "chat_message_posted", chatId: m.chatId, messageId: m.id });
    return structuredClone(m);
  }
}
