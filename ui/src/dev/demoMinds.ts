// Dev only: chats, thoughts, memories, relationships and stamina for the fixed company of
// test/fixtures (fixedOrg), so /mock.html#chats, #relationships and #employee/12 look lived in.
import type { FakeBackend } from "./memory/fakeBackend";

export function seedDemoMinds(backend: FakeBackend): void {
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");

  const engineering = backend.departmentChat(1);
  const frontend = backend.departmentChat(2);
  const marketing = backend.departmentChat(3);

  if (engineering) {
    const id = engineering.id;
    backend.addChatMessage(id, "system", "Alan Turing joined Engineering", ago(190));
    backend.addChatMessage(id, 12, "Hi all, I'm Alan. Backend engineer; I like proofs, queues and long walks through stack traces.", ago(188));
    backend.addChatMessage(id, 11, "Welcome aboard, Alan. Our first milestone is the login service, due Friday.", ago(180));
    backend.addThought(13, id, {
      innerThoughts: "Another welcome thread. Everyone's already said hi; nothing useful to add.",
      reason: "Nothing to add to the welcomes.",
      interest: 3,
      saturation: 8,
      createdAt: ago(179),
    });
    backend.addChatMessage(id, "boss", "@Grace Hopper please make sure the rate limiter is in before the demo.", ago(42));
    backend.addThought(11, id, {
      innerThoughts: "The boss wants the rate limiter before the demo. Alan has the most context; I'll ask him and follow up tonight.",
      shouldSpeak: true,
      spoke: true,
      reason: "The boss addressed me directly.",
      interest: 9,
      saturation: 2,
      createdAt: ago(41),
    });
    backend.addChatMessage(id, 11, "On it. @Alan Turing can you take the limiter? Token bucket per user is fine for now.", ago(41));
    backend.addChatMessage(id, 12, "Yes. I'll write the property tests first, then wire it into the gateway.", ago(39));
    backend.addChatMessage(id, 12, "Draft PR is up: 120 requests per minute per user, burst of 20.", ago(12));
    backend.addThought(13, id, {
      innerThoughts: "Token bucket again. I'd rather do it at the proxy, but fine — I said my piece last week.",
      shouldSpeak: true,
      spoke: false,
      silencedBy: "cooldown",
      reason: "Worth pointing out the proxy option.",
      interest: 6,
      saturation: 5,
      createdAt: ago(11),
    });
    backend.addChatMessage(id, 13, "Works for me. Ship it and we'll see what the load test says.", ago(6));
  }
  if (frontend) {
    backend.addChatMessage(frontend.id, 21, "Design review moved to 3pm. @张伟 can you bring the new login screens?", ago(95));
    backend.addChatMessage(frontend.id, 22, "好的，我把登录页的两个方案都带上。", ago(93));
    frontend.bossReadId = backend.chatMessages.at(-1)?.id ?? null;
  }
  if (marketing) {
    backend.addChatMessage(marketing.id, 31, "Launch copy, take three. Peggy, make it sing.", ago(60 * 26));
    backend.addChatMessage(marketing.id, 32, "Drafted two taglines. Sharing after lunch.", ago(60 * 25));
    marketing.bossReadId = backend.chatMessages.at(-1)?.id ?? null;
  }

  const boss = backend.addChat("boss", "Alan Turing", [12], { createdAt: ago(60 * 30) });
  backend.addChatMessage(boss.id, "boss", "How is the limiter going?", ago(30));
  backend.addChatMessage(boss.id, 12, "Tests pass locally. I'm checking the edge case where a burst straddles two windows.", ago(28));
  boss.bossReadId = backend.chatMessages.at(-1)?.id ?? null;

  const lunch = backend.addChat("group", "Friday lunch", [11, 21, 31, 32], { createdAt: ago(60 * 48) });
  backend.addChatMessage(lunch.id, 31, "Tacos again? I'll book the usual place.", ago(60 * 47));

  // Relationships: one-way views with impressions.
  backend.relate(11, 12, 82, "Sharp and thorough. Explains things twice, but usually right.", 14);
  backend.relate(12, 11, 76, "Decisive lead; gives me room to think.", 11);
  backend.relate(11, 13, 35, "Brilliant but dismissive in reviews.", 9);
  backend.relate(13, 11, 28, "Too many meetings.", 7);
  backend.relate(12, 13, 58, "Blunt. His benchmarks are real, though.", 5);
  backend.relate(21, 22, 91, "Fast, careful, never complains.", 12);
  backend.relate(22, 21, 88, "很照顾新人，评审意见一针见血。", 12);
  backend.relate(11, 21, 72, "Reliable; her estimates hold.", 6);
  backend.relate(31, 32, 55, "Talented, a bit stubborn about commas.", 8);
  backend.relate(32, 31, 47, "Takes credit in meetings.", 8);
  backend.relate(22, 31, 12, "Promised the launch date without asking us.", 3);
  backend.relate(41, 12, 64, "Asks good questions.", 2);

  // Alan's mind.
  backend.stamina.set(12, { patience: 68, fatigue: 38, stress: 22 });
  backend.stamina.set(13, { patience: 40, fatigue: 55, stress: 48 });
  backend.employeeSpend.set(12, { todayUsd: 0.4625, totalUsd: 9.8 });
  backend.addMemory(12, "The boss wants the rate limiter in before Friday's demo.", { importance: 9, visibility: "team", createdAt: ago(42) });
  backend.addMemory(12, "Grace prefers small PRs with the tests in the same change.", { importance: 7, createdAt: ago(60 * 20) });
  backend.addMemory(12, "Linus thinks rate limiting belongs in the proxy.", { importance: 4, visibility: "team", createdAt: ago(60 * 3) });
  backend.addMemory(12, "Burst straddling two windows: still to check.", {
    kind: "short_term",
    importance: 6,
    createdAt: ago(28),
    expiresAt: new Date(now + 23 * 3600_000).toISOString(),
  });
  backend.addMemory(12, "Lunch on Friday is tacos.", {
    kind: "short_term",
    importance: 2,
    visibility: "public",
    createdAt: ago(60 * 5),
    expiresAt: new Date(now + 4 * 3600_000).toISOString(),
  });
  backend.addTask(12, "Rate limiter: token bucket per user, 120/min, burst 20", ago(41));
  backend.addTask(12, "Check the burst across two windows", ago(8));
  backend.addThought(12, boss.id, {
    innerThoughts: "The boss is checking in. Honest answer: nearly done, one edge case left.",
    shouldSpeak: true,
    spoke: true,
    reason: "The boss asked me directly.",
    interest: 9,
    saturation: 1,
    createdAt: ago(29),
  });
}
