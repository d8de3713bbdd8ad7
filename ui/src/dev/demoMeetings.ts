// Dev only: two meetings for the fixed company of test/fixtures (fixedOrg), so /mock.html#chats shows
// the meeting panel. Seed it after seedDemoWork (the open meeting runs under an instruction of its own).
//
// "Load testing" is open and rule-based: Grace, Alan and Linus argue about how to load test the login
// service. Paying $5,000 for a service is money, so the secretary takes it to the boss (an escalation in
// the mailbox); testing on an isolated copy of staging is a tech question, ruled by Grace as the
// engineering lead. Linus has the floor now. "Launch taglines" is closed: Don and Peggy voted, and
// the minutes were taken.
import type { MoveKind } from "../bindings/MoveKind";
import type { FakeBackend } from "./memory/fakeBackend";

/** `mail: false` files nothing in the mailbox (for `/mock.html?nomail`). */
export function seedDemoMeetings(backend: FakeBackend, { mail = true }: { mail?: boolean } = {}): void {
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const zh = backend.company?.language === "zh-CN";
  const l = (en: string, cn: string) => (zh ? cn : en);
  const GRACE = 11;
  const ALAN = 12;
  const LINUS = 13;
  const DON = 31;
  const PEGGY = 32;

  // ---- Load testing (open) ----
  const loadTesting = backend.addMeeting(l("Load testing", "压力测试"), [GRACE, ALAN, LINUS], {
    strategy: "rule_based",
    maxTurns: 12,
    createdAt: ago(36),
  });
  const chatId = loadTesting.chatId;
  const trace = backend.addTrace(l("Make sure the login service holds up on launch day", "确保登录服务在发布当天扛得住"), {
    origin: "chat",
    chatId: backend.chats.find((c) => c.kind === "boss" && c.memberIds.includes(GRACE))?.id ?? null,
    createdAt: ago(40),
  });
  const say = (from: "system" | number, minutes: number, en: string, cn: string) => backend.addChatMessage(chatId, from, l(en, cn), ago(minutes));
  const note = (kind: MoveKind, employeeId: number | null, minutes: number, reason: string) =>
    backend.addModeratorNote(chatId, kind, employeeId, reason, ago(minutes));

  say("system", 36, "Grace Hopper called a meeting: Load testing", "Grace Hopper 发起了会议：压力测试");
  note("speak", GRACE, 35, "Grace Hopper called the meeting and has not spoken yet");
  say(GRACE, 35, "We need numbers for the login service before launch. @Linus Torvalds, what's the plan?", "发布前我们需要登录服务的压测数据。@Linus Torvalds 你打算怎么测？");
  note("speak", LINUS, 33, "Linus Torvalds was addressed by name in the last turn");
  say(
    LINUS,
    33,
    "k6 from two regions against staging, 2,000 logins a minute for an hour. Or we pay a load-testing service $5,000 and they run it for us, spike test included.",
    "用 k6 从两个区域压预发环境，每分钟 2000 次登录，持续一小时。或者花 5000 美元请压测服务商来做，连峰值测试一起。",
  );
  note("speak", ALAN, 31, "Alan Turing owns the staging environment the last turn is about; by the rules: expertise");
  say(
    ALAN,
    31,
    "Not against shared staging, please: it skews everyone's numbers for an hour. I can bring up an isolated copy with the same config.",
    "别压共享的预发环境，会把大家一小时的数据都搞乱。我可以起一套配置相同的独立副本。",
  );
  note("speak", GRACE, 28, "Grace Hopper leads Engineering and two proposals are on the table");
  say(GRACE, 28, "@Alan Turing agreed on the isolated copy. Linus, do we need the paid service at all?", "@Alan Turing 同意用独立副本。Linus，付费服务真的有必要吗？");
  note("speak", LINUS, 26, "Linus Torvalds was addressed by name in the last turn");
  say(
    LINUS,
    26,
    "For 2k a minute, no. For the 20k spike marketing wants on launch day, our own boxes won't cut it. I'd spend the $5,000.",
    "每分钟 2000 次用不着。但市场部要的发布日 2 万次峰值，我们自己的机器扛不住。我建议花这 5000 美元。",
  );
  note("speak", ALAN, 25, "Alan Turing disagreed with the last proposal in an earlier turn");
  say(ALAN, 25, "I'm against spending it before we have the 2k numbers. They may tell us the spike is fine.", "拿到 2000 次的数据之前我反对花这笔钱，说不定峰值根本没问题。");
  say("system", 24, "The secretary has taken this to the boss; the meeting goes on.", "秘书已把这件事交给老板，会议继续。");
  note("speak", GRACE, 23, "Grace Hopper leads Engineering and a tech question is open");
  say(
    GRACE,
    23,
    "Meanwhile: isolated copy of staging, k6, 2k a minute for an hour. Alan owns the environment, Linus the script.",
    "先这样：独立的预发副本，k6，每分钟 2000 次压一小时。Alan 负责环境，Linus 负责脚本。",
  );
  say(
    "system",
    22,
    "Ruling: run the load test on an isolated copy of staging — approved by Grace Hopper (tech questions go to the engineering lead).",
    "裁决：在预发环境的独立副本上做压测——由 Grace Hopper 批准（技术问题由工程负责人决定）。",
  );
  note("speak", ALAN, 21, "Alan Turing was given the environment in the last turn");
  say(ALAN, 21, "On it. The copy will be up within the hour; I'll post the URL here.", "好的，一小时内把副本起好，地址发在这里。");
  note("speak", LINUS, 19, "Linus Torvalds was given the script in an earlier turn and has not confirmed");
  loadTesting.speakerId = LINUS;

  backend.addDecision(chatId, l("Should we spend $5,000 on a load-testing service?", "要不要花 5000 美元请压测服务商？"), {
    decisionType: "money",
    outcome: "escalated",
    decidedByKind: "boss",
    status: "escalated",
    createdAt: ago(24),
    authorizationChain: [
      { who: "Linus Torvalds", employeeId: LINUS, role: "proposed", rule: "stated in the meeting", weight: null },
      { who: "Alan Turing", employeeId: ALAN, role: "opposed", rule: "stated in the meeting", weight: null },
      { who: "secretary", employeeId: null, role: "escalated", rule: "money decisions belong to the boss", weight: null },
    ],
  });
  backend.addDecision(chatId, l("Run the load test on an isolated copy of staging?", "压测在预发环境的独立副本上做？"), {
    decisionType: "tech",
    outcome: "approved",
    decidedByKind: "lead",
    decidedByName: "Grace Hopper",
    status: "decided",
    traceId: trace.id,
    createdAt: ago(22),
    authorizationChain: [
      { who: "Alan Turing", employeeId: ALAN, role: "proposed", rule: "stated in the meeting", weight: null },
      { who: "Linus Torvalds", employeeId: LINUS, role: "supported", rule: "stated in the meeting", weight: null },
      { who: "Grace Hopper", employeeId: GRACE, role: "decided", rule: "jurisdiction: tech questions go to the engineering lead", weight: null },
    ],
  });
  if (mail) {
    backend.addEscalation(
      LINUS,
      l("Waiting for you: Should we spend $5,000 on a load-testing service?", "等你决定：要不要花 5000 美元请压测服务商？"),
      l(
        "In the meeting \"Load testing\", Linus Torvalds proposed paying a load-testing service $5,000 for the launch-day spike test; Alan Turing would rather wait for the numbers from an isolated staging copy first. Money decisions belong to you. The meeting goes on in the meantime.",
        "在“压力测试”会议上，Linus Torvalds 提议花 5000 美元请服务商做发布日峰值测试；Alan Turing 希望先拿到独立预发副本的数据再说。资金类决定由你来定，会议照常进行。",
      ),
      { chatId, createdAt: ago(24) },
    );
  }

  // ---- Launch taglines (closed, by vote) ----
  const taglines = backend.addMeeting(l("Launch taglines", "发布会标语"), [DON, PEGGY], {
    strategy: "round_robin",
    maxTurns: 6,
    status: "closed",
    createdAt: ago(60 * 26),
    closedAt: ago(60 * 25),
    minutes: l(
      "Don Draper: \"Your company, minus the meetings.\" is the one people will repeat.\nPeggy Olson: \"Hire in a sentence. Ship by Friday.\" says what the product does.\nDecided by weighted vote: lead with \"Your company, minus the meetings.\"; keep the second for the product page.",
      "Don Draper：“你的公司，少开会。”更容易被人记住。\nPeggy Olson：“一句话招人，周五就上线。”更能说清产品是做什么的。\n加权投票决定：主打“你的公司，少开会。”，第二条用在产品页。",
    ),
  });
  const t = taglines.chatId;
  backend.addChatMessage(t, DON, l("\"Your company, minus the meetings.\" People will repeat it.", "“你的公司，少开会。”大家会记住这句。"), ago(60 * 26 - 2));
  backend.addChatMessage(t, PEGGY, l("\"Hire in a sentence. Ship by Friday.\" It says what we do.", "“一句话招人，周五就上线。”这句说清了我们是做什么的。"), ago(60 * 26 - 4));
  backend.addChatMessage(
    t,
    "system",
    l("The meeting is closed; the minutes went to every member's memory and the boss's mailbox.", "会议结束，纪要已存入每位成员的记忆并发到老板的邮箱。"),
    ago(60 * 25),
  );
  backend.addModeratorNote(t, "speak", DON, "round-robin: Don Draper is next", ago(60 * 26 - 1));
  backend.addModeratorNote(t, "speak", PEGGY, "round-robin: Peggy Olson is next", ago(60 * 26 - 3));
  backend.addModeratorNote(t, "close", null, "every member has spoken in all 2 rounds", ago(60 * 25));
  backend.addDecision(t, l("Lead the launch with \"Your company, minus the meetings.\"?", "发布会主打“你的公司，少开会。”？"), {
    decisionType: "other",
    outcome: "approved",
    decidedByKind: "vote",
    status: "decided",
    createdAt: ago(60 * 25),
    authorizationChain: [
      { who: "Don Draper", employeeId: DON, role: "proposed", rule: "weighted vote (seniority, lead, expertise)", weight: 2 },
      { who: "Peggy Olson", employeeId: PEGGY, role: "opposed", rule: "weighted vote (seniority, lead, expertise)", weight: 1.5 },
      { who: "vote", employeeId: null, role: "decided", rule: "weighted vote within other: 2.0 for, 1.5 against", weight: null },
    ],
  });
}
