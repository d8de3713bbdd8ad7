//! `cubicle-cli org …` as a user runs it: a real process on a real SQLite file.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::process::{Command, Output};

#[path = "support/model.rs"]
mod model;
use model::scripted_model;

struct Cli {
    db: String,
    _dir: tempfile::TempDir,
}

impl Cli {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("dir");
        let db = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
        Self { db, _dir: dir }
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
            .arg("--db")
            .arg(&self.db)
            .args(args)
            // Debug builds only: lets webhooks reach the test's loopback servers.
            .env("CUBICLE_TEST_WEBHOOK_LOOPBACK", "1")
            .output()
            .expect("run cubicle-cli")
    }

    /// Runs with an OpenAI-compatible provider given by the environment at `base_url`.
    fn run_with_model(&self, base_url: &str, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
            .arg("--db")
            .arg(&self.db)
            .args(args)
            .env("CUBICLE_PROVIDER", "openai-compatible")
            .env("CUBICLE_BASE_URL", base_url)
            .env("CUBICLE_MODEL", "m")
            .env("CUBICLE_TEST_WEBHOOK_LOOPBACK", "1")
            .output()
            .expect("run cubicle-cli")
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf8")
    }
}

#[test]
fn boss_builds_and_edits_the_org_from_the_terminal() {
    let cli = Cli::new();
    cli.ok(&[
        "org",
        "init",
        "--name",
        "Acme",
        "--boss",
        "Ada",
        "--language",
        "zh-CN",
    ]);
    cli.ok(&["org", "add-department", "Engineering"]);
    cli.ok(&["org", "add-department", "前端组", "--parent", "engineering"]);
    cli.ok(&["org", "add-department", "Sales"]);
    cli.ok(&[
        "org",
        "hire",
        "Alice",
        "--title",
        "Frontend Engineer",
        "--department",
        "前端组",
    ]);
    cli.ok(&[
        "org",
        "hire",
        "Bob",
        "--title",
        "QA Engineer",
        "--department",
        "Engineering",
        "--manager",
        "alice",
    ]);
    cli.ok(&["org", "move", "Bob", "--to", "Sales"]);

    let tree = cli.ok(&["org", "show"]);
    assert!(
        tree.contains("Acme — boss: Ada · 2 people in 3 departments"),
        "{tree}"
    );
    assert!(tree.contains("■ 前端组"), "{tree}");

    let snap: serde_json::Value =
        serde_json::from_str(&cli.ok(&["org", "show", "--json"])).expect("json");
    let sales = snap["departments"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["name"] == "Sales"))
        .expect("sales");
    let bob = snap["employees"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["name"] == "Bob"))
        .expect("bob");
    assert_eq!(bob["departmentId"], sales["id"]);
    assert_eq!(snap["company"]["language"], "zh-CN");

    cli.ok(&["org", "fire", "Alice"]);
    let snap: serde_json::Value =
        serde_json::from_str(&cli.ok(&["org", "show", "--json"])).expect("json");
    assert_eq!(snap["employees"].as_array().map(Vec::len), Some(1));
}

#[test]
fn mistakes_get_a_clear_error_and_a_failing_exit_code() {
    let cli = Cli::new();
    let out = cli.run(&["org", "add-department", "Engineering"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no company has been set up yet"));

    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    cli.ok(&["org", "add-department", "Engineering"]);
    let out = cli.run(&["org", "add-department", "ENGINEERING"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));

    let out = cli.run(&[
        "org",
        "hire",
        "Zed",
        "--title",
        "Engineer",
        "--archetype",
        "wizard",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown archetype"));

    let out = cli.run(&["org", "fire", "Nobody"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no current employee named"));
}

#[test]
fn without_a_keychain_setting_a_key_fails_with_an_actionable_error() {
    use std::io::Write;
    use std::process::Stdio;
    let cli = Cli::new();
    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    cli.ok(&["provider", "add", "deepseek"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args(["--db", &cli.db, "provider", "set-key", "deepseek"])
        // No session bus and no display: no Secret Service can be reached.
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"sk-should-not-be-stored\n")
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no OS keychain is available"), "{err}");
    assert!(
        err.contains("CUBICLE_API_KEY_"),
        "says how to work around it: {err}"
    );
    assert!(!err.contains("sk-should-not-be-stored"));
    // Nothing was written anywhere else either: the provider still has no key.
    let list: serde_json::Value =
        serde_json::from_str(&cli.ok(&["provider", "list", "--json"])).expect("json");
    let ds = list
        .as_array()
        .and_then(|l| l.iter().find(|p| p["id"] == "deepseek"))
        .expect("deepseek");
    assert_eq!(ds["hasKey"], false);
}

#[test]
fn ask_answers_from_a_provider_given_by_the_environment_without_any_set_up() {
    let cli = Cli::new();
    let out = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args(["--db", &cli.db, "ask", "Say hello."])
        .env("CUBICLE_PROVIDER", "builtin")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stdout).trim().is_empty());
}

#[test]
fn a_broken_environment_provider_fails_cleanly() {
    // A closed port: the run must fail cleanly, naming the provider's address.
    let cli = Cli::new();
    let out = cli.run_with_model("http://127.0.0.1:9/v1", &["ask", "hello"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("127.0.0.1:9"), "{err}");

    let out = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args(["--db", &cli.db, "ask", "hello"])
        .env("CUBICLE_PROVIDER", "no-such-thing")
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a preset or dialect"));
}

#[test]
fn the_secretary_hires_from_the_terminal() {
    let cli = Cli::new();
    cli.ok(&[
        "org",
        "init",
        "--name",
        "Acme",
        "--boss",
        "Ada",
        "--language",
        "zh-CN",
    ]);
    cli.ok(&["org", "add-department", "工程部"]);
    let out = cli.ok(&["say", "帮我给工程部招一个测试"]);
    assert!(out.contains("测试工程师"), "{out}");
    assert!(
        out.contains("proposed"),
        "nothing happens without --yes: {out}"
    );
    let snap: serde_json::Value =
        serde_json::from_str(&cli.ok(&["org", "show", "--json"])).expect("json");
    assert_eq!(snap["employees"].as_array().map(Vec::len), Some(0));

    let out = cli.ok(&["say", "--yes", "帮我给工程部招一个测试"]);
    assert!(out.contains("applied"), "{out}");
    let snap: serde_json::Value =
        serde_json::from_str(&cli.ok(&["org", "show", "--json"])).expect("json");
    assert_eq!(snap["employees"][0]["title"], "测试工程师");

    let out = cli.ok(&["secretary", "undo", "2"]);
    assert!(out.contains("undone"), "{out}");
    let snap: serde_json::Value =
        serde_json::from_str(&cli.ok(&["org", "show", "--json"])).expect("json");
    assert_eq!(snap["employees"].as_array().map(Vec::len), Some(0));
}

#[test]
fn intent_reads_with_the_model_tier_when_one_is_configured_and_creates_no_database() {
    let cli = Cli::new();
    // No company and no model: the rule tier alone, and no database file appears.
    let out = cli.ok(&["intent", "--json", "hire a designer"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["tier"], "rules");
    assert!(
        !cli._dir.path().join("c.db").exists(),
        "intent created a database"
    );

    // A model given by the environment reads what the rules cannot.
    let url = scripted_model(
        r#"{"tier":"model","intents":[{"kind":"hire_employee","confidence":0.9,"slots":{"role":"Data Scientist","count":1}}]}"#,
    );
    let out = cli.run_with_model(
        &url,
        &[
            "intent",
            "--json",
            "we could use someone who crunches numbers",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["tier"], "model", "{v}");
    assert_eq!(v["intents"][0]["kind"], "hire_employee");
    assert_eq!(v["intents"][0]["slots"]["role"], "Data Scientist");
    // What the rules are sure of never reaches the model.
    let out = cli.run_with_model(&url, &["intent", "--json", "fire Bob"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["tier"], "rules");
}

#[test]
fn bench_sandbox_measures_boxed_and_plain_runs_side_by_side() {
    let out = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args(["bench", "sandbox", "--json", "--iterations", "10"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("exactly one JSON object");
    assert_eq!(v["iterations"], 10);
    // Offline and online, each beside the same unconfined runs.
    let offline = v["commands"].as_array().expect("commands");
    let online = v["online_commands"].as_array().expect("online_commands");
    assert_eq!((offline.len(), online.len()), (2, 2), "{v}");
    for (c, o) in offline.iter().zip(online) {
        assert_eq!(c["unconfined_p50_ms"], o["unconfined_p50_ms"], "{v}");
        for c in [c, o] {
            let f = |k: &str| c[k].as_f64().unwrap_or_else(|| panic!("{k}: {c}"));
            assert!(
                f("unconfined_p50_ms") > 0.0 && f("sandboxed_p50_ms") > 0.0,
                "{c}"
            );
            assert!(f("sandboxed_p95_ms") >= f("sandboxed_p50_ms"), "{c}");
            let added = f("sandboxed_p50_ms") - f("unconfined_p50_ms");
            assert!((f("added_p50_ms") - added).abs() < 0.02, "{c}");
        }
    }
    assert!(v["goal_online_added_p50_ms"].as_f64().is_some(), "{v}");
    // Every attack was tried and held; `root` only where the app runs as root.
    let cases = v["cases"].as_array().expect("cases");
    let names: Vec<&str> = cases.iter().filter_map(|c| c["name"].as_str()).collect();
    let mut expected = vec!["link", "hard_link", "bus", "fifo", "disk", "loopback"];
    if v["as_root"] == true {
        expected.push("root");
    }
    assert_eq!(names, expected, "{v}");
    for c in cases {
        assert_eq!(c["held"], true, "{c}");
        assert!(c["detail"].as_str().is_some_and(|d| !d.is_empty()), "{c}");
    }

    // Without bubblewrap there is nothing to measure: a clear error, not a figure.
    let out = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args(["bench", "sandbox", "--iterations", "10"])
        .env("CUBICLE_BWRAP", "/nonexistent/bwrap")
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("bubblewrap was not found"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn bench_story(extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args(["bench", "story", "--json"])
        .args(extra)
        .output()
        .expect("run")
}

#[test]
fn bench_story_plays_seed_001_s_launch_plan_to_the_report_and_checks_its_goals() {
    let out = bench_story(&["--check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("exactly one JSON object");
    assert_eq!(v["finished"], true, "{v}");
    let report = v["report"].as_str().expect("the done report");
    assert!(
        report.starts_with("Requirement done: plan the launch"),
        "{report}"
    );
    assert!(
        report.contains("all 5 piece(s) of work finished"),
        "{report}"
    );
    assert!(report.contains("Dan passed"), "{report}");
    let per = v["messages_per_person"].as_object().expect("per person");
    assert_eq!(per.len(), 6, "{v}");
    assert!(
        per.values().all(|n| n.as_u64() >= Some(1)),
        "everyone spoke: {v}"
    );
    let calls = v["calls"].as_f64().expect("calls");
    let tokens = v["sent_tokens"].as_f64().expect("tokens");
    // Every thought is at least one call; the ratios are computed from the counts.
    assert!(calls >= 6.0 && tokens > calls * 100.0, "{v}");
    assert!((v["seed_001_calls_ratio"].as_f64().unwrap() - 240.0 / calls).abs() < 1e-9);
    assert!((v["seed_001_tokens_ratio"].as_f64().unwrap() - 210_000.0 / tokens).abs() < 1e-6);
    assert_eq!(v["tokenizer"], "o200k_base");

    // A goal out of reach makes --check fail, and says which.
    let out = bench_story(&["--check", "--goal", "seed_001_calls_ratio=1000"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("seed_001_calls_ratio"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `bench chat` at a small size (the figures are measured all the same), with `extra`.
fn bench_chat_small(extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args([
            "bench",
            "chat",
            "--departments",
            "2",
            "--dept-size",
            "4",
            "--busy-minutes",
            "10",
            "--quiet-hours",
            "0.5",
        ])
        .args(extra)
        .output()
        .expect("run")
}

#[test]
fn bench_chat_races_ours_against_baselines_that_run_and_checks_its_goals() {
    let out = bench_chat_small(&["--json", "--check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("utf8");
    let v: serde_json::Value =
        serde_json::from_str(stdout.trim()).expect("exactly one JSON object");
    assert_eq!(v["tokenizer"], "o200k_base", "{v}");
    // Ours and every baseline, each counted at the server in the same run.
    let n = |c: &str, k: &str| {
        v[c][k]
            .as_f64()
            .unwrap_or_else(|| panic!("{c}.{k} is a number: {v}"))
    };
    for c in ["ours", "naive_prompt", "polling_10s", "no_gates"] {
        assert!(n(c, "calls") > 0.0 && n(c, "sent_tokens") > 0.0, "{c}: {v}");
        let per = n(c, "sent_tokens") / n(c, "thoughts");
        assert!((n(c, "tokens_per_thought") - per).abs() < 0.1, "{c}: {v}");
    }
    // The ratios are the counts' own.
    let ratio = |k: &str| v["ratios"][k].as_f64().unwrap_or(0.0);
    let close = |a: f64, b: f64| (a - b).abs() < 0.01;
    assert!(close(
        ratio("polling_10s_calls"),
        n("polling_10s", "calls") / n("ours", "calls")
    ));
    assert!(close(
        ratio("naive_prompt_tokens_per_thought"),
        n("naive_prompt", "tokens_per_thought") / n("ours", "tokens_per_thought")
    ));
    assert!(close(
        ratio("no_gates_sent_tokens"),
        n("no_gates", "sent_tokens") / n("ours", "sent_tokens")
    ));
    // A poller wakes 8 people every 10 s for 40 minutes (a wake-up the gates hold back
    // sends nothing).
    assert!(n("polling_10s", "calls") >= 8.0 * 6.0 * 40.0 / 2.0, "{v}");
    let o = &v["overhead"];
    assert!(o["us_per_thought_p50"].as_f64() > Some(0.0), "{v}");
    assert!(o["us_per_thought_p99"].as_f64() >= o["us_per_thought_p50"].as_f64());
    assert!(o["wire_us_p50"].as_f64() > Some(0.0), "{v}");
    assert_eq!(v["goals_missed"], serde_json::json!([]), "{v}");
    sent_per_dialect_is_counted(&v);

    // A goal that cannot hold: --check says so and fails (the quickest bench shows it;
    // every bench goes through the same check).
    let out = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args([
            "bench",
            "gateway",
            "--calls",
            "20",
            "--check",
            "--goal=overhead_us_p50=-1",
        ])
        .output()
        .expect("run");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bench gateway missed its goals") && err.contains("overhead_us_p50"),
        "{err}"
    );
}

/// What each dialect sends for the department thought, counted with a real tokenizer.
fn sent_per_dialect_is_counted(v: &serde_json::Value) {
    // (The small model's steps are short: ~100 tokens.)
    for (dialect, least) in [
        ("openai_native", 500.0),
        ("deepseek", 500.0),
        ("anthropic", 500.0),
        ("builtin", 50.0),
    ] {
        let tokens = v["sent_prompt_tokens_per_thought"][dialect].as_f64();
        assert!(tokens > Some(least), "{dialect}: {v}");
    }
    assert_eq!(v["sent_prompt_tokenizer"]["deepseek"], "deepseek_v3");
    // Of which the form on the wire: a schema where the server takes one, the bare
    // `json_object` envelope where the shape goes in words.
    let form = |d: &str| {
        v["sent_form_tokens_per_thought"][d]
            .as_f64()
            .unwrap_or(-1.0)
    };
    let sent = |d: &str| {
        v["sent_prompt_tokens_per_thought"][d]
            .as_f64()
            .unwrap_or(0.0)
    };
    for schema in ["openai_native", "anthropic"] {
        assert!(
            form(schema) > 100.0 && form(schema) < sent(schema),
            "{schema}: {v}"
        );
    }
    assert!((0.0..20.0).contains(&form("deepseek")), "{v}");
    // And the system prompt: the rest is the conversation.
    let system = |d: &str| {
        v["sent_system_tokens_per_thought"][d]
            .as_f64()
            .unwrap_or(-1.0)
    };
    for d in ["openai_native", "deepseek", "anthropic"] {
        assert!(
            system(d) > 100.0 && form(d) + system(d) < sent(d),
            "{d}: {v}"
        );
    }
    // The small model's steps go through its own template: no such split.
    assert!(v["sent_system_tokens_per_thought"]["builtin"].is_null());
}

#[test]
fn a_company_runs_headless_from_a_task_to_a_report_in_the_mailbox() {
    let cli = Cli::new();
    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    cli.ok(&["org", "add-department", "Engineering"]);
    cli.ok(&[
        "org",
        "hire",
        "Alice",
        "--title",
        "Backend Engineer",
        "--department",
        "Engineering",
    ]);
    cli.ok(&["say", "--yes", "ask Alice to research REST vs GraphQL"]);
    let tasks: serde_json::Value = serde_json::from_str(&cli.ok(&["tasks", "--json"])).unwrap();
    assert_eq!(tasks[0]["status"], "pending", "{tasks}");
    let task_id = tasks[0]["id"].as_i64().unwrap();

    // Every thought of the scripted model resolves the task and says so.
    let thought = serde_json::json!({
        "innerThoughts": "I compared both; REST fits our clients today.",
        "messages": [{"content": "Research done: REST for now, GraphQL once the mobile app needs it."}],
        "shouldSpeak": true,
        "taskOps": [{"op": "resolve", "id": task_id, "result": "REST for now"}]
    });
    let url = scripted_model(&thought.to_string());
    let out = cli.run_with_model(
        &url,
        &[
            "run",
            "--for",
            "10m",
            "--virtual-clock",
            "--seed",
            "1",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(stats["thoughts"].as_u64().unwrap() >= 2, "{stats}");

    let tasks: serde_json::Value = serde_json::from_str(&cli.ok(&["tasks", "--json"])).unwrap();
    assert_eq!(tasks[0]["status"], "resolved", "{tasks}");
    let mail: serde_json::Value = serde_json::from_str(&cli.ok(&["mailbox", "--json"])).unwrap();
    let report = mail["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "report")
        .unwrap_or_else(|| panic!("a report in the mailbox: {mail}"));
    assert_eq!(report["employeeName"], "Alice");
    assert_eq!(report["taskId"], task_id);
    // One report; the run may also cross 6 pm local time, when the evening digest is filed.
    let items = mail["items"].as_array().unwrap();
    let reports = items.iter().filter(|m| m["kind"] == "report").count();
    let digests = items.iter().filter(|m| m["kind"] == "digest").count();
    assert_eq!(reports, 1, "{mail}");
    assert_eq!(mail["unread"], 1 + digests, "{mail}");
    assert_eq!(items.len(), 1 + digests, "{mail}");
    let text = cli.ok(&["mailbox"]);
    assert!(text.contains("Done: research REST vs GraphQL"), "{text}");

    // The report leads back to what the boss said, with everything in between.
    let trace = report["traceId"]
        .as_str()
        .expect("the report carries its trace");
    the_trace_tells_the_story(&cli, trace);
}

/// The trace of a report read from the terminal: the instruction, each step between,
/// model calls only with --all; an unknown id is a clear error.
fn the_trace_tells_the_story(cli: &Cli, trace: &str) {
    let story: serde_json::Value =
        serde_json::from_str(&cli.ok(&["trace", trace, "--json"])).unwrap();
    assert_eq!(
        story["summary"]["instruction"],
        "ask Alice to research REST vs GraphQL"
    );
    assert_eq!(story["summary"]["origin"], "secretary");
    let kinds: Vec<&str> = story["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    for k in [
        "instruction",
        "task_created",
        "model_call",
        "thought",
        "message",
        "task_resolved",
        "mail",
    ] {
        assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
    }
    assert!(story["summary"]["calls"].as_u64().unwrap() >= 2, "{story}");
    let text = cli.ok(&["trace", trace]);
    assert!(
        text.contains("ask Alice to research REST vs GraphQL"),
        "{text}"
    );
    assert!(text.contains("task_resolved"), "{text}");
    assert!(
        !text.contains("model_call"),
        "model calls only with --all: {text}"
    );
    assert!(cli.ok(&["trace", trace, "--all"]).contains("model_call"));
    let list = cli.ok(&["traces"]);
    assert!(list.contains(trace), "{list}");
    // An unknown id is a clear error, not an empty story.
    let out = cli.run(&["trace", "tr-000000000000"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
}

#[test]
fn the_board_lists_requirements_by_status() {
    let cli = Cli::new();
    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    cli.ok(&["org", "add-department", "Engineering"]);
    cli.ok(&["org", "add-department", "Design"]);
    let empty: serde_json::Value = serde_json::from_str(&cli.ok(&["board", "--json"])).unwrap();
    let columns: Vec<&str> = empty["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        columns,
        [
            "open",
            "in_progress",
            "in_review",
            "waiting_for_boss",
            "done",
            "cancelled"
        ]
    );
    cli.ok(&[
        "say",
        "--yes",
        "open a new requirement for the login page in Engineering",
    ]);
    let board: serde_json::Value = serde_json::from_str(&cli.ok(&["board", "--json"])).unwrap();
    let open = &board["columns"][0]["items"];
    assert_eq!(open.as_array().map(Vec::len), Some(1), "{board}");
    assert_eq!(open[0]["departmentName"], "Engineering");
    assert_eq!(open[0]["requirement"]["name"], "the login page");
    // Nobody in Engineering to own it: it says so, and waits.
    let text = cli.ok(&["board"]);
    assert!(text.contains("== open, nobody owns it yet (1)"), "{text}");
    assert!(
        text.contains("the login page (Engineering) — 0 pending, 0 done"),
        "{text}"
    );
}

#[test]
fn a_requirement_said_in_the_terminal_is_planned_when_the_engine_runs() {
    let cli = Cli::new();
    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    cli.ok(&["org", "add-department", "Engineering"]);
    for (name, title) in [("Bob", "Backend Engineer"), ("Lena", "Frontend Engineer")] {
        cli.ok(&[
            "org",
            "hire",
            name,
            "--title",
            title,
            "--department",
            "Engineering",
        ]);
    }
    // No engine runs while the boss says it: the requirement and its planning task wait.
    cli.ok(&[
        "say",
        "--yes",
        "start a requirement to build the frontend login page in Engineering",
    ]);
    let tasks: serde_json::Value = serde_json::from_str(&cli.ok(&["tasks", "--json"])).unwrap();
    assert_eq!(tasks.as_array().map(Vec::len), Some(1), "{tasks}");
    assert_eq!(tasks[0]["createdBy"], "plan", "{tasks}");
    assert_eq!(tasks[0]["status"], "pending", "{tasks}");
    let plan_id = tasks[0]["id"].as_i64().unwrap();
    let board = cli.ok(&["board"]);
    assert!(
        board.contains("owned by Lena"),
        "the frontend engineer fits best: {board}"
    );

    let thought = serde_json::json!({
        "innerThoughts": "Two halves: the form and the endpoint.",
        "messages": [{"content": "Plan for the login page: I build the form, Bob the session endpoint."}],
        "shouldSpeak": true,
        "taskOps": [{"op": "resolve", "id": plan_id, "result": "Lena: form; Bob: endpoint"}]
    });
    let url = scripted_model(&thought.to_string());
    let out = cli.run_with_model(
        &url,
        &["run", "--for", "10m", "--virtual-clock", "--seed", "3"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let tasks: serde_json::Value = serde_json::from_str(&cli.ok(&["tasks", "--json"])).unwrap();
    let plan = tasks
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == plan_id)
        .unwrap();
    assert_eq!(plan["status"], "resolved", "{tasks}");
    // The plan is in the requirement's group, said by its owner.
    let chats = cli.ok(&["chats"]);
    let group = chats
        .split("# ")
        .find(|c| c.starts_with("build the frontend login page [requirement"))
        .unwrap_or_else(|| panic!("{chats}"));
    assert!(
        group.contains("Lena: Plan for the login page: I build the form"),
        "{chats}"
    );
    // Her plan gave nothing out: the work stays with her, and the requirement is not done.
    let board = cli.ok(&["board"]);
    assert!(board.contains("== in progress (1)"), "{board}");
    assert!(!chats.contains("is done"), "{chats}");
}

#[test]
fn the_boss_sets_a_reviewer_from_the_terminal_and_by_saying_so() {
    let cli = Cli::new();
    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    cli.ok(&["org", "add-department", "Engineering"]);
    cli.ok(&["org", "add-department", "Design"]);
    for name in ["Dan", "Carol"] {
        cli.ok(&[
            "org",
            "hire",
            name,
            "--title",
            "QA Engineer",
            "--department",
            "Engineering",
        ]);
    }
    cli.ok(&[
        "say",
        "--yes",
        "start a requirement to build the login page in Engineering, reviewed by Dan",
    ]);
    let board: serde_json::Value = serde_json::from_str(&cli.ok(&["board", "--json"])).unwrap();
    // It started itself: Dan (first of two equally fit) owns it and has its plan to make.
    assert_eq!(board["columns"][1]["status"], "in_progress", "{board}");
    let item = &board["columns"][1]["items"][0];
    assert_eq!(item["departmentName"], "Engineering", "{board}");
    assert_eq!(item["reviewerName"], "Dan", "{board}");
    assert_eq!(item["ownerName"], "Dan", "{board}");

    let out = cli.ok(&["reviewer", "login page", "Carol"]);
    assert!(out.contains("reviewed by Carol"), "{out}");
    assert!(cli.ok(&["board"]).contains("reviewed by Carol"));
    let out = cli.ok(&["reviewer", "login", "--none"]);
    assert!(out.contains("no reviewer"), "{out}");

    // Bad input is a clear error and changes nothing.
    let out = cli.run(&["reviewer", "billing", "Carol"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no requirement matches"));
    let out = cli.run(&["reviewer", "login", "Zed"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nobody called"));
    assert!(cli.ok(&["board"]).contains("1 pending"));
    assert!(!cli.ok(&["board"]).contains("reviewed by"));

    let empty = cli.ok(&["decisions"]);
    assert!(empty.contains("no decisions yet"), "{empty}");
    let json: serde_json::Value = serde_json::from_str(&cli.ok(&["decisions", "--json"])).unwrap();
    assert_eq!(json, serde_json::json!([]));
}

#[test]
fn tools_and_approval_policy_are_set_per_employee_from_the_terminal() {
    let cli = Cli::new();
    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    cli.ok(&["org", "add-department", "Marketing"]);
    cli.ok(&[
        "org",
        "hire",
        "Mia",
        "--title",
        "Copywriter",
        "--department",
        "Marketing",
    ]);
    let out = cli.ok(&[
        "org",
        "set-tools",
        "Mia",
        "--tools",
        "read_file, post_webhook",
        "--policy",
        "manual",
        "--cli-command",
        "echo draft",
    ]);
    assert_eq!(
        out.trim(),
        "Mia: tools read_file, post_webhook; approvals manual; sandbox network off; runs `echo draft`"
    );
    // The boss lets Mia's sandbox reach the network, and takes it back.
    let out = cli.ok(&["org", "set-tools", "Mia", "--network", "on"]);
    assert!(out.contains("sandbox network on"), "{out}");
    let bad = cli.run(&["org", "set-tools", "Mia", "--network", "maybe"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("possible values: on, off"));
    let out = cli.ok(&["org", "set-tools", "Mia", "--network", "off"]);
    assert!(out.contains("sandbox network off"), "{out}");
    let snap: serde_json::Value =
        serde_json::from_str(&cli.ok(&["org", "show", "--json"])).unwrap();
    let mia = &snap["employees"][0];
    assert_eq!(
        mia["toolWhitelist"],
        serde_json::json!(["read_file", "post_webhook"])
    );
    assert_eq!(mia["approvalPolicy"], "manual");
    // Back to the company's policy; an unknown tool is a clear error that changes nothing.
    let out = cli.ok(&["org", "set-tools", "Mia", "--policy", "company"]);
    assert!(out.contains("approvals as the company"), "{out}");
    let bad = cli.run(&["org", "set-tools", "Mia", "--tools", "launch_rockets"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no tool named \"launch_rockets\""));
    let snap: serde_json::Value =
        serde_json::from_str(&cli.ok(&["org", "show", "--json"])).unwrap();
    assert_eq!(
        snap["employees"][0]["toolWhitelist"],
        serde_json::json!(["read_file", "post_webhook"])
    );
    // Nothing waits yet.
    assert_eq!(
        cli.ok(&["approvals", "list"]).trim(),
        "nothing waits for you"
    );
}

/// Acme with Mia, a copywriter in Marketing who may post to webhooks.
fn marketing_with_mia() -> Cli {
    let cli = Cli::new();
    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    cli.ok(&["org", "add-department", "Marketing"]);
    cli.ok(&[
        "org",
        "hire",
        "Mia",
        "--title",
        "Copywriter",
        "--department",
        "Marketing",
    ]);
    cli.ok(&["org", "set-tools", "Mia", "--tools", "post_webhook"]);
    cli
}

/// The boss asks Mia to announce the release and a headless run lets her ask for the
/// post: a stand-in webhook (it answers any POST) and a model whose every thought asks
/// for it.
fn mia_asks_to_announce(cli: &Cli) {
    cli.ok(&["say", "--yes", "ask Mia to announce the release"]);
    let hook = scripted_model("{}").replace("/v1", "/hook");
    cli.ok(&["webhooks", "allow", &hook]);
    let thought = serde_json::json!({
        "innerThoughts": "The boss wants it announced.",
        "messages": [{"content": "I'll post it once it is approved."}],
        "shouldSpeak": true,
        "toolCalls": [{"tool": "post_webhook",
                       "args": {"url": hook, "text": "Release 2.3 is out", "style": "slack"},
                       "reason": "announce the release"}]
    });
    let url = scripted_model(&thought.to_string());
    let out = cli.run_with_model(
        &url,
        &["run", "--for", "5m", "--virtual-clock", "--seed", "2"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_approval_from_a_headless_run_is_decided_from_the_terminal() {
    let cli = marketing_with_mia();
    mia_asks_to_announce(&cli);

    let waiting: serde_json::Value =
        serde_json::from_str(&cli.ok(&["approvals", "list", "--json"])).unwrap();
    let waiting = waiting.as_array().unwrap();
    assert_eq!(
        waiting.len(),
        1,
        "asked once, however often she thought: {waiting:?}"
    );
    assert_eq!(waiting[0]["tool"], "post_webhook");
    assert_eq!(
        waiting[0]["status"],
        serde_json::json!(cubicle_core::approvals::ApprovalStatus::Waiting)
    );
    let id = waiting[0]["id"].as_i64().unwrap().to_string();
    assert!(
        cli.ok(&["approvals", "list"])
            .contains("Mia wants post_webhook")
    );

    // From a script, approving needs the seal `list` showed: bound to what was seen.
    let blind = cli.run(&["approvals", "decide", &id, "approve"]);
    assert!(!blind.status.success());
    assert!(
        String::from_utf8_lossy(&blind.stderr).contains("needs --hash"),
        "{}",
        String::from_utf8_lossy(&blind.stderr)
    );
    let seal = waiting[0]["argsHash"].as_str().unwrap().to_owned();
    assert!(
        cli.ok(&["approvals", "list"])
            .contains(&format!("seal: {}", &seal[..12]))
    );
    let other = cli.run(&[
        "approvals",
        "decide",
        &id,
        "approve",
        "--hash",
        "0123456789ab",
    ]);
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("not the one you looked at"));
    let decided: serde_json::Value = serde_json::from_str(&cli.ok(&[
        "approvals",
        "decide",
        &id,
        "approve",
        "--hash",
        &seal[..12],
        "--note",
        "ship it",
        "--json",
    ]))
    .unwrap();
    assert_eq!(
        decided["status"],
        serde_json::json!(cubicle_core::approvals::ApprovalStatus::Approved)
    );
    assert_eq!(decided["decidedVia"], "cli");
    assert_eq!(decided["note"], "ship it");
    assert!(decided["executedAt"].is_string(), "it ran: {decided}");
    // Deciding the other way now is a clear error.
    let again = cli.run(&["approvals", "decide", &id, "reject"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already approved"));
    assert!(
        cli.ok(&["approvals", "list", "--history"])
            .contains("decided via cli")
    );
}

#[test]
fn the_boss_keeps_the_webhook_allowlist_from_the_terminal() {
    let cli = Cli::new();
    cli.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    assert!(
        cli.ok(&["webhooks", "list"])
            .contains("no webhook destinations")
    );
    // A pasted webhook URL keeps only its host: the secret path is not stored.
    let out = cli.ok(&[
        "webhooks",
        "allow",
        "https://Hooks.Slack.com/services/T0/B0/secret",
    ]);
    assert_eq!(out.trim(), "hooks.slack.com");
    cli.ok(&["webhooks", "allow", "open.feishu.cn:8443"]);
    let listed: Vec<String> =
        serde_json::from_str(&cli.ok(&["webhooks", "list", "--json"])).unwrap();
    assert_eq!(listed, ["hooks.slack.com", "open.feishu.cn:8443"]);

    let bad = cli.run(&["webhooks", "allow", "ftp://files.example.com"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("is not a host name"));
    let missing = cli.run(&["webhooks", "disallow", "example.com"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("not an allowed"));

    cli.ok(&["webhooks", "disallow", "hooks.slack.com"]);
    let listed: Vec<String> =
        serde_json::from_str(&cli.ok(&["webhooks", "list", "--json"])).unwrap();
    assert_eq!(listed, ["open.feishu.cn:8443"], "bad input lost nothing");
}

/// Exports the company to `file` (and to stdout) while its provider's key is live from
/// the environment: both carry the provider and never the key. The file's text.
fn export_with_a_live_key(a: &Cli, file: &std::path::Path) -> String {
    // The key comes from the environment, as in a headless run: it is live for the export.
    let key = "sk-cli-bundle-test-0123456789";
    let with_key = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
            .arg("--db")
            .arg(&a.db)
            .args(args)
            .env("CUBICLE_API_KEY_MOONSHOT_KIMI", key)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(with_key(&["provider", "list", "--json"]).contains("\"hasKey\": true"));
    with_key(&["export", "--out", file.to_str().unwrap()]);
    let on_stdout = with_key(&["export"]);
    let saved = std::fs::read_to_string(file).unwrap();
    for bundle in [&saved, &on_stdout] {
        assert!(bundle.contains(&format!(
            "\"schemaVersion\": {}",
            cubicle_core::bundle::SCHEMA_VERSION
        )));
        assert!(
            bundle.contains("api.moonshot"),
            "the provider is in the bundle"
        );
        assert!(!bundle.contains(key), "the API key leaked into the bundle");
    }
    saved
}

/// An imported provider's URL is used only once the boss confirms it: listed as
/// waiting, refused when asked, confirmed by name (an unknown name is a clear error).
fn the_imported_provider_waits_for_its_confirmation(b: &Cli) {
    assert!(
        b.ok(&["provider", "list"])
            .contains("IMPORTED: not used until"),
        "provider list says so too"
    );
    let listed: serde_json::Value =
        serde_json::from_str(&b.ok(&["imported", "list", "--json"])).unwrap();
    assert_eq!(listed["providers"][0]["providerId"], "moonshot-kimi");
    let asked = b.run(&["ask", "--provider", "moonshot-kimi", "hello"]);
    assert!(!asked.status.success());
    let err = String::from_utf8_lossy(&asked.stderr);
    assert!(err.contains("has not been confirmed"), "{err}");
    let wrong = b.run(&["imported", "confirm", "provider", "nobody"]);
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("imported list"));
    let confirmed = b.ok(&["imported", "confirm", "provider", "moonshot-kimi"]);
    assert!(
        confirmed.contains("confirmed: https://api.moonshot"),
        "{confirmed}"
    );
    assert!(
        b.ok(&["imported", "list"])
            .contains("nothing imported waits")
    );
}

#[test]
fn a_company_moves_to_a_new_database_through_a_bundle_file() {
    let a = Cli::new();
    a.ok(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    a.ok(&["org", "add-department", "Engineering"]);
    a.ok(&[
        "org",
        "hire",
        "Alice",
        "--title",
        "Engineer",
        "--department",
        "Engineering",
    ]);
    a.ok(&["provider", "add", "moonshot"]);
    let files = tempfile::tempdir().unwrap();
    let file = files.path().join("acme.json");
    let saved = export_with_a_live_key(&a, &file);

    let b = Cli::new();
    let said = b.ok(&["import", file.to_str().unwrap()]);
    assert!(said.contains("imported Acme (1 people"), "{said}");
    // The imported provider's URL is not used before the boss confirms it, and the
    // import says how.
    assert!(
        said.contains("cubicle-cli imported confirm provider moonshot-kimi"),
        "{said}"
    );
    the_imported_provider_waits_for_its_confirmation(&b);
    assert_eq!(
        b.ok(&["org", "show", "--json"]),
        a.ok(&["org", "show", "--json"])
    );
    // A second import into the now busy database is refused and changes nothing.
    let again = b.run(&["import", file.to_str().unwrap()]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("not empty"));
    assert_eq!(
        b.ok(&["org", "show", "--json"]),
        a.ok(&["org", "show", "--json"])
    );

    // Half a file: a clear error, and the new database stays empty.
    let broken = files.path().join("broken.json");
    std::fs::write(&broken, &saved[..saved.len() / 2]).unwrap();
    let c = Cli::new();
    let out = c.run(&["import", broken.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not valid JSON"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        c.ok(&["import", file.to_str().unwrap()])
            .contains("imported Acme")
    );
}

/// Lin answers for Marketing (manual policy), Sam for nothing; bad invitations are
/// refused with a reason and change nothing. Lin's id.
fn invite_lin_for_marketing_and_sam(cli: &Cli) -> i64 {
    let invited = cli.ok(&[
        "people",
        "add",
        "Lin",
        "--role",
        "Head of Marketing",
        "--policy",
        "manual",
        "--department",
        "Marketing",
    ]);
    assert!(
        invited.contains("Lin (Head of Marketing, en, manual): answers for Marketing"),
        "{invited}"
    );
    cli.ok(&["people", "add", "Sam", "--role", "Finance"]);
    assert!(cli.ok(&["people", "approver", "Mia"]).contains("Lin"));
    // Bad invitations say why and change nothing.
    for (args, why) in [
        (&["people", "add", "Ada"][..], "Ada"),
        (&["people", "add", "Mia"][..], "Mia"),
        (
            &["people", "add", "Zed", "--department", "Nowhere"][..],
            "Nowhere",
        ),
        (
            &["people", "add", "Zed", "--policy", "sometimes"][..],
            "auto, key_steps, manual",
        ),
    ] {
        let out = cli.run(args);
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
    let people: serde_json::Value =
        serde_json::from_str(&cli.ok(&["people", "list", "--json"])).unwrap();
    assert_eq!(people.as_array().map(Vec::len), Some(2), "{people}");
    people[0]["id"].as_i64().unwrap()
}

#[test]
fn a_person_invited_from_the_terminal_decides_what_is_routed_to_them_and_nobody_else_does() {
    let cli = marketing_with_mia();
    assert!(
        cli.ok(&["people", "list"])
            .contains("nobody besides the boss")
    );
    assert_eq!(
        cli.ok(&["people", "approver", "Mia"]).trim(),
        "Ada (the boss)"
    );

    let lin = invite_lin_for_marketing_and_sam(&cli);

    // Mia asks to post; the request is Lin's to decide.
    mia_asks_to_announce(&cli);
    let waiting: serde_json::Value =
        serde_json::from_str(&cli.ok(&["approvals", "list", "--as", "Lin", "--json"])).unwrap();
    assert_eq!(waiting.as_array().map(Vec::len), Some(1), "{waiting}");
    assert_eq!(waiting[0]["approverId"], lin);
    let id = waiting[0]["id"].as_i64().unwrap().to_string();
    let seal = waiting[0]["argsHash"].as_str().unwrap().to_owned();
    assert!(
        cli.ok(&["approvals", "list", "--as", "Sam"])
            .contains("nothing waits for you")
    );

    // Sam may not decide it, nor may someone who is not here; Lin does.
    let decide_as = |who: &str| {
        cli.run(&[
            "approvals",
            "decide",
            &id,
            "approve",
            "--hash",
            &seal,
            "--as",
            who,
            "--json",
        ])
    };
    let sam = decide_as("Sam");
    assert!(!sam.status.success());
    let err = String::from_utf8_lossy(&sam.stderr);
    assert!(err.contains("is Lin's to decide"), "{err}");
    let nobody = decide_as("Zed");
    assert!(String::from_utf8_lossy(&nobody.stderr).contains("nobody named \"Zed\""));
    let decided = decide_as("Lin");
    assert!(
        decided.status.success(),
        "{}",
        String::from_utf8_lossy(&decided.stderr)
    );
    let decided: serde_json::Value = serde_json::from_slice(&decided.stdout).unwrap();
    assert_eq!(decided["decidedBy"], lin);
    assert!(decided["executedAt"].is_string(), "it ran: {decided}");

    // Once Lin leaves, Mia's actions are the boss's again.
    cli.ok(&["people", "remove", "Lin"]);
    assert_eq!(
        cli.ok(&["people", "approver", "Mia"]).trim(),
        "Ada (the boss)"
    );
}

/// A roster of `n` cards in the agency-agents shape, ten per division folder.
fn write_roster(dir: &std::path::Path, n: usize) {
    for i in 0..n {
        let division = dir.join(format!("division-{}", i / 10));
        std::fs::create_dir_all(&division).unwrap();
        let card = format!(
            "---\nname: Specialist {i}\ndescription: Handles case type {i} end to end and writes up what was done.\ncolor: blue\ntools: read_file, write_file\ntemperature: 0.{}\n---\n\nYou are specialist {i}. Never guess a number.\n",
            i % 10
        );
        std::fs::write(division.join(format!("specialist-{i}.md")), card).unwrap();
    }
}

#[test]
fn boss_imports_lists_and_exports_a_fifty_card_roster() {
    let cli = Cli::new();
    let roster = tempfile::tempdir().unwrap();
    write_roster(roster.path(), 50);
    let path = roster.path().to_str().unwrap();

    let preview = cli.ok(&["roles", "import", path, "--dry-run"]);
    assert!(
        preview.contains("would import (dry run): 50 new, 0 changed, 0 unchanged, 0 unreadable"),
        "{preview}"
    );
    assert!(
        !cli.ok(&["roles", "list"]).contains("Specialist 7"),
        "a dry run writes nothing"
    );

    let done = cli.ok(&["roles", "import", path]);
    assert!(done.contains("imported: 50 new, 0 changed"), "{done}");
    assert!(done.contains("took "), "{done}");
    // The same roster as a tarball made by the system's tar, folder and all: the same cards.
    let tarball = roster.path().with_extension("tar.gz");
    let made = std::process::Command::new("tar")
        .arg("-czf")
        .arg(&tarball)
        .arg("-C")
        .arg(roster.path().parent().unwrap())
        .arg(roster.path().file_name().unwrap())
        .status()
        .unwrap();
    assert!(made.success());
    let again = cli.ok(&["roles", "import", tarball.to_str().unwrap(), "--dry-run"]);
    let _ = std::fs::remove_file(&tarball);
    assert!(
        again.contains("0 new, 0 changed, 50 unchanged, 0 unreadable"),
        "{again}"
    );
    let list = cli.ok(&["roles", "list"]);
    assert!(
        list.contains("division-0/specialist-7  Specialist 7  [yours]  tools: read_file, write_file  model: company route  temperature: 0.7"),
        "{list}"
    );

    let out = tempfile::tempdir().unwrap();
    let export_dir = out.path().join("roster");
    let export: serde_json::Value =
        serde_json::from_str(&cli.ok(&["roles", "export", export_dir.to_str().unwrap(), "--json"]))
            .unwrap();
    let files = export["files"].as_array().unwrap().len();
    assert!(
        files >= 70,
        "20 built-in and 50 imported cards, got {files}"
    );
    let back: serde_json::Value =
        serde_json::from_str(&cli.ok(&["roles", "import", export_dir.to_str().unwrap(), "--json"]))
            .unwrap();
    assert_eq!(back["new"].as_array().unwrap().len(), 0, "{back}");
    assert_eq!(back["changed"].as_array().unwrap().len(), 0, "{back}");
    assert_eq!(back["unchanged"].as_array().unwrap().len(), files);
}
