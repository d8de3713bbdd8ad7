//! `cubicle-cli bench builtin`: the offline company on the built-in model (SPEC §13).
//!
//! Seed 000's story as a new user would give it, once per seed, each in a fresh company
//! on a manual clock: three people in Robotics; the boss tells the secretary "ask Alice
//! to write a short design note on the gripper calibration timeout and discuss it with
//! Bob". Done means, within the simulated window: Alice asked Bob, Bob answered, the
//! task was resolved with its document saved in the workspace, and Alice's report is in
//! the boss chat with its copy in the mailbox — all read back from the database and the
//! workspace. The model is the real GGUF on this machine's CPU; simulated time jumps
//! between wake-ups, the model's time is real.
//!
//! A story counts only when its work is real: the deliverable names the task's subject,
//! is readable in the company's language by the app's own rule
//! ([`check::readable`]: the same one that flags a deliverable in the app) and the app
//! did not flag it for review (a copy of a message, too short, unreadable, off topic).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::clock::{Clock as _, ManualClock};
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::gateway::start_of_day;
use cubicle_core::mailbox::{MailFilter, MailKind};
use cubicle_core::mind::guided::is_chinese;
use cubicle_core::org::{NewDepartment, NewEmployee, SetupCompany};
use cubicle_core::types::{Archetype, Language};
use cubicle_core::work::{ReviewReason, check};
use serde::Serialize;

use super::goals::builtin as goals;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub seeds: u64,
    pub minutes: i64,
    pub language: Language,
    /// The GGUF to measure; the installed built-in model by default.
    pub model: Option<PathBuf>,
}

/// One story.
#[derive(Clone, Debug, Serialize)]
pub struct Story {
    pub seed: u64,
    pub completed: bool,
    /// What is missing when it did not complete.
    pub missing: Vec<&'static str>,
    /// Simulated minutes from the instruction to the report.
    pub minutes_to_report: Option<f64>,
    pub thoughts: u64,
    pub model_calls: u64,
    pub wall_seconds: f64,
    /// The deliverable, as saved (a sample for the reader).
    pub deliverable: Option<String>,
    /// Why the app flagged the deliverable for review, if it did.
    pub needs_review: Option<ReviewReason>,
    pub report: Option<String>,
}

/// The figures.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    pub model: String,
    pub language: Language,
    pub usable_thought_ratio: f64,
    pub cut_off_answers: u64,
    pub thought_seconds_p50: f64,
    pub thought_seconds_p95: f64,
    pub stories_completed: u64,
    pub stories_run: u64,
    /// Share of the employees' written answers (messages and documents) in Chinese.
    pub zh_answers_ratio: f64,
    /// Share of the deliverables and reports that name the task's subject (a word of it
    /// such as "gripper" or 校准): a document in the right language can still be about
    /// something else, or not readable at all. Reported, not a goal: it reads the words,
    /// not the sense, so it is a floor on what a reader would call on topic.
    pub on_topic_ratio: f64,
    /// Share of the deliverables and reports readable in the company's language
    /// ([`check::readable`]: mostly Chinese characters in a Chinese company, mostly
    /// English-looking words in an English one; never replacement characters or the
    /// prompt's scaffolding written back). The app's own lines (draft note, link) are
    /// left out.
    pub readable_ratio: f64,
    pub thoughts: u64,
    pub model_calls: u64,
    /// The process's peak resident memory, model loaded (MB).
    pub peak_rss_mb: Option<f64>,
    pub stories: Vec<Story>,
}

impl Figures {
    /// The goals this run missed, in words.
    pub fn missed(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.usable_thought_ratio < goals::USABLE_THOUGHT_RATIO {
            out.push(format!(
                "usable thoughts {:.2} < {}",
                self.usable_thought_ratio,
                goals::USABLE_THOUGHT_RATIO
            ));
        }
        if self.cut_off_answers > goals::CUT_OFF_ANSWERS {
            out.push(format!("{} answers cut off", self.cut_off_answers));
        }
        if self.thought_seconds_p50 > goals::THOUGHT_SECONDS_P50 {
            out.push(format!(
                "thought p50 {:.1} s > {} s",
                self.thought_seconds_p50,
                goals::THOUGHT_SECONDS_P50
            ));
        }
        let done = self.stories_completed as f64 / self.stories_run.max(1) as f64;
        if done < goals::STORIES_COMPLETED_RATIO {
            out.push(format!(
                "{} of {} stories completed",
                self.stories_completed, self.stories_run
            ));
        }
        if self.on_topic_ratio < goals::ON_TOPIC_RATIO {
            out.push(format!(
                "on topic {:.2} < {}",
                self.on_topic_ratio,
                goals::ON_TOPIC_RATIO
            ));
        }
        if self.readable_ratio < goals::READABLE_RATIO {
            out.push(format!(
                "readable {:.2} < {}",
                self.readable_ratio,
                goals::READABLE_RATIO
            ));
        }
        if self.language == Language::ZhCn && self.zh_answers_ratio < goals::ZH_ANSWERS_RATIO {
            out.push(format!(
                "Chinese answers {:.2} < {}",
                self.zh_answers_ratio,
                goals::ZH_ANSWERS_RATIO
            ));
        }
        out
    }
}

pub async fn run(o: Options, json: bool, check: bool) -> Result<()> {
    let f = measure(&o).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&f)?);
    } else {
        print(&f);
    }
    let missed = f.missed();
    if check && !missed.is_empty() {
        bail!("bench builtin missed its goals: {}", missed.join("; "));
    }
    Ok(())
}

/// What one story leaves behind for the totals.
struct Tally {
    thought_rows: u64,
    unusable_rows: u64,
    cut_off: u64,
    seconds: Vec<f64>,
    answers: Vec<String>,
}

pub async fn measure(o: &Options) -> Result<Figures> {
    let model = match &o.model {
        Some(p) => p.clone(),
        // The company's language picks the built-in model, as in the app.
        None => cubicle_llm::model_file::default_model_path_for(match o.language {
            Language::En => "en",
            Language::ZhCn => "zh-CN",
        }),
    };
    if !model.is_file() {
        bail!(
            "no model at {} (scripts/install-model.sh installs the built-in ones; --model PATH \
             measures another GGUF)",
            model.display()
        );
    }
    let mut stories = Vec::new();
    let mut all = Tally {
        thought_rows: 0,
        unusable_rows: 0,
        cut_off: 0,
        seconds: vec![],
        answers: vec![],
    };
    for seed in 1..=o.seeds.max(1) {
        let (story, tally) = story(o, &model, seed).await?;
        all.thought_rows += tally.thought_rows;
        all.unusable_rows += tally.unusable_rows;
        all.cut_off += tally.cut_off;
        all.seconds.extend(tally.seconds);
        all.answers.extend(tally.answers);
        stories.push(story);
    }
    all.seconds.sort_by(f64::total_cmp);
    let zh = all.answers.iter().filter(|a| is_chinese(a)).count();
    let subject = script(o.language).subject;
    let written: Vec<&String> = stories
        .iter()
        .flat_map(|s| s.deliverable.iter().chain(s.report.iter()))
        .collect();
    let on_topic = written.iter().filter(|t| names_subject(t, subject)).count();
    let readable = stories
        .iter()
        .flat_map(|s| {
            let doc = s.deliverable.as_deref().map(check::authored);
            let report = s.report.as_deref().map(report_words);
            doc.into_iter().chain(report)
        })
        .filter(|t| check::readable(t, o.language))
        .count();
    Ok(Figures {
        model: model
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        language: o.language,
        usable_thought_ratio: ratio(
            all.thought_rows - all.unusable_rows.min(all.thought_rows),
            all.thought_rows,
        ),
        cut_off_answers: all.cut_off,
        thought_seconds_p50: percentile(&all.seconds, 0.5),
        thought_seconds_p95: percentile(&all.seconds, 0.95),
        stories_completed: stories.iter().filter(|s| s.completed).count() as u64,
        stories_run: stories.len() as u64,
        zh_answers_ratio: ratio(zh as u64, all.answers.len() as u64),
        on_topic_ratio: ratio(on_topic as u64, written.len() as u64),
        readable_ratio: ratio(readable as u64, written.len() as u64),
        thoughts: stories.iter().map(|s| s.thoughts).sum(),
        model_calls: stories.iter().map(|s| s.model_calls).sum(),
        peak_rss_mb: peak_rss_mb(),
        stories,
    })
}

/// The employee's own words of a report: its first line (the app adds its lines after
/// it: the review line, the draft note, the link).
fn report_words(report: &str) -> String {
    report.lines().next().unwrap_or_default().to_owned()
}

/// Whether `text` uses a word of the subject (case-insensitive; a stem matches its forms).
/// A report's link to its deliverable does not count: the file name is the engine's.
fn names_subject(text: &str, subject: &[&str]) -> bool {
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with("Deliverable: ") && !l.starts_with("交付物："))
        .collect::<Vec<_>>()
        .join("\n")
        .to_lowercase();
    subject.iter().any(|w| text.contains(w))
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The people of the story and the boss's words, in the company's language.
struct Script {
    company: &'static str,
    boss: &'static str,
    department: &'static str,
    people: [(&'static str, &'static str); 3],
    instruction: &'static str,
    /// Words of the task's subject a deliverable or report on it would use.
    subject: &'static [&'static str],
}

fn script(language: Language) -> Script {
    match language {
        Language::En => Script {
            company: "Acme Robotics",
            boss: "Ada",
            department: "Robotics",
            people: [
                ("Alice", "Robotics Engineer"),
                ("Bob", "Controls Engineer"),
                ("Carol", "QA Engineer"),
            ],
            instruction: "ask Alice to write a short design note on the gripper calibration \
                          timeout and discuss it with Bob",
            subject: &["gripper", "calibrat", "timeout"],
        },
        Language::ZhCn => Script {
            company: "极客机器人",
            boss: "老周",
            department: "机器人部",
            people: [
                ("李娜", "机器人工程师"),
                ("王强", "控制工程师"),
                ("张伟", "测试工程师"),
            ],
            instruction: "让李娜写一份关于夹爪校准超时的简短设计说明，写之前先问问王强的意见",
            subject: &["夹爪", "校准", "超时"],
        },
    }
}

async fn story(o: &Options, model: &Path, seed: u64) -> Result<(Story, Tally)> {
    let started = Instant::now();
    let noon = DateTime::from_timestamp(1_796_040_000, 0).unwrap_or_default();
    let from = start_of_day(noon) + TimeDelta::hours(9);
    let clock = ManualClock::new(from);
    let dir = tempfile::tempdir()?;
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("story.db").display()
    );
    let core = AppCore::open_with(
        &url,
        CoreOptions {
            clock: clock.shared(),
            builtin_model: Some(model.to_path_buf()),
            workspace: Some(dir.path().join("workspace")),
            ..CoreOptions::default()
        },
    )
    .await?;
    let s = script(o.language);
    let ids = staff(&core, &s, o.language).await?;

    let engine = Engine::new(
        &core,
        EngineConfig {
            seed: Some(seed),
            record_timings: true,
            ..EngineConfig::default()
        },
    );
    engine.bootstrap().await?;
    let turn = core
        .secretary
        .say(s.instruction, true)
        .await
        .context("the secretary could not take the instruction")?;
    let (alice, bob) = (ids[0], ids[1]);
    let task = core
        .work
        .all()
        .await?
        .into_iter()
        .find(|t| t.owner_id == alice)
        .with_context(|| {
            format!(
                "the secretary made no task for {} of {:?} (its reply: {:?})",
                s.people[0].0, s.instruction, turn.reply.text
            )
        })?;
    let said_at = clock.now();
    engine
        .run_simulated(&clock, said_at + TimeDelta::minutes(o.minutes))
        .await;

    let checked = check_story(&core, alice, bob, task.id, &s, o.language).await?;
    let tally = tally(&core, &engine, from).await?;
    let stats = engine.stats();
    Ok((
        Story {
            seed,
            completed: checked.missing.is_empty(),
            missing: checked.missing,
            minutes_to_report: checked
                .reported_at
                .map(|at| (at - said_at).num_seconds() as f64 / 60.0),
            thoughts: stats.thoughts,
            model_calls: stats.model_calls,
            wall_seconds: started.elapsed().as_secs_f64(),
            deliverable: checked.deliverable,
            needs_review: checked.needs_review,
            report: checked.report,
        },
        tally,
    ))
}

/// The company of the story: its boss, Robotics and the three people in it (ids in the
/// script's order).
async fn staff(core: &AppCore, s: &Script, language: Language) -> Result<Vec<i32>> {
    core.org
        .setup_company(SetupCompany {
            name: s.company.into(),
            boss_name: s.boss.into(),
            language,
            mission: None,
        })
        .await?;
    let dept = core
        .org
        .create_department(NewDepartment {
            name: s.department.into(),
            parent_id: None,
            mission: None,
        })
        .await?;
    let mut ids = Vec::new();
    for (name, title) in s.people {
        let e = core
            .org
            .hire(NewEmployee {
                name: name.into(),
                title: title.into(),
                department_id: Some(dept.id),
                manager_id: None,
                archetype: Some(Archetype::WarmHearted),
            })
            .await?;
        ids.push(e.id);
    }
    Ok(ids)
}

struct Checked {
    missing: Vec<&'static str>,
    reported_at: Option<DateTime<Utc>>,
    deliverable: Option<String>,
    needs_review: Option<ReviewReason>,
    report: Option<String>,
}

async fn check_story(
    core: &AppCore,
    alice: i32,
    bob: i32,
    task_id: i32,
    s: &Script,
    language: Language,
) -> Result<Checked> {
    let mut missing = Vec::new();
    let chats = core.chats.list().await?;
    let dm = chats.iter().find(|c| {
        c.member_ids.contains(&alice) && c.member_ids.contains(&bob) && c.member_ids.len() == 2
    });
    let dm_messages = match dm {
        Some(c) => core.chats.messages(c.id).await?,
        None => vec![],
    };
    let asked = dm_messages
        .iter()
        .position(|m| m.sender_employee_id == Some(alice));
    if asked.is_none() {
        missing.push("Alice asked Bob");
    }
    let answered = asked.is_some_and(|at| {
        dm_messages[at..]
            .iter()
            .any(|m| m.sender_employee_id == Some(bob))
    });
    if !answered {
        missing.push("Bob answered");
    }
    let task = core.work.all().await?.into_iter().find(|t| t.id == task_id);
    let resolved = task
        .as_ref()
        .is_some_and(|t| t.status == cubicle_core::work::TaskStatus::Resolved);
    if !resolved {
        missing.push("the task resolved");
    }
    let workspace = core.approvals.runtime().workspace_root()?;
    let deliverable = task
        .as_ref()
        .and_then(|t| t.result.as_deref())
        .and_then(|r| {
            r.rsplit_once('(')
                .map(|(_, p)| p.trim_end_matches(')').to_owned())
        })
        .and_then(|rel| std::fs::read_to_string(workspace.join(rel)).ok());
    match deliverable.as_deref() {
        None => missing.push("the deliverable saved"),
        Some(doc) => {
            // Work a person can use: on the subject, readable in the company's language,
            // and not flagged by the app's own check.
            if !names_subject(doc, s.subject) {
                missing.push("the deliverable on topic");
            }
            if !check::readable(&check::authored(doc), language) {
                missing.push("the deliverable readable");
            }
        }
    }
    let needs_review = task.as_ref().and_then(|t| t.needs_review);
    if needs_review.is_some() {
        missing.push("the deliverable not flagged for review");
    }
    let boss_chat = core.chats.boss_chat(alice).await?;
    let report = core
        .chats
        .messages(boss_chat.id)
        .await?
        .into_iter()
        .find(|m| m.sender_employee_id == Some(alice));
    if report.is_none() {
        missing.push("the report in the boss chat");
    }
    let mail = core.mailbox.list(MailFilter::default()).await?;
    if !mail.items.iter().any(|m| m.kind == MailKind::Report) {
        missing.push("the report in the mailbox");
    }
    Ok(Checked {
        missing,
        reported_at: report
            .as_ref()
            .and_then(|m| DateTime::parse_from_rfc3339(&m.created_at).ok())
            .map(|d| d.with_timezone(&Utc)),
        deliverable,
        needs_review,
        report: report.map(|m| m.text),
    })
}

/// Thoughts, cut-off answers, thought times and what the employees wrote.
async fn tally(core: &AppCore, engine: &Engine, since: DateTime<Utc>) -> Result<Tally> {
    let thoughts = core.minds.thought_counts_since(since).await?;
    let cut_off = core.providers.answers_cut_off_since(since).await?;
    let seconds = engine
        .take_timings()
        .iter()
        .map(|t| t.total.as_secs_f64())
        .collect();
    let mut answers = Vec::new();
    for chat in core.chats.list().await? {
        for m in core.chats.messages(chat.id).await? {
            if m.sender_employee_id.is_some() {
                // The engine's link line to a deliverable is not the employee's writing.
                let own = m.text.lines().next().unwrap_or_default().to_owned();
                answers.push(own);
            }
        }
    }
    let workspace = core.approvals.runtime().workspace_root()?;
    for doc in deliverables(&workspace.join("employees")) {
        answers.push(doc);
    }
    Ok(Tally {
        thought_rows: thoughts.total,
        unusable_rows: thoughts.dropped,
        cut_off,
        seconds,
        answers,
    })
}

fn deliverables(employees: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(people) = std::fs::read_dir(employees) else {
        return out;
    };
    for person in people.filter_map(Result::ok) {
        let Ok(files) = std::fs::read_dir(person.path().join("deliverables")) else {
            continue;
        };
        for f in files.filter_map(Result::ok) {
            if let Ok(text) = std::fs::read_to_string(f.path()) {
                out.push(text);
            }
        }
    }
    out
}

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

fn print(f: &Figures) {
    println!(
        "bench builtin — {} on this machine's CPU, {:?} company, seed-000 story × {}",
        f.model, f.language, f.stories_run
    );
    println!(
        "  stories completed      {} of {}",
        f.stories_completed, f.stories_run
    );
    println!(
        "  usable thoughts        {:.2}  ({} thoughts, {} model calls)",
        f.usable_thought_ratio, f.thoughts, f.model_calls
    );
    println!("  answers cut off        {}", f.cut_off_answers);
    println!(
        "  seconds per thought    p50 {:.1}  p95 {:.1}",
        f.thought_seconds_p50, f.thought_seconds_p95
    );
    println!("  answers in Chinese     {:.2}", f.zh_answers_ratio);
    println!(
        "  on topic               {:.2}  (deliverables and reports naming the subject)",
        f.on_topic_ratio
    );
    println!(
        "  readable               {:.2}  (deliverables and reports readable in the company's language)",
        f.readable_ratio
    );
    if let Some(mb) = f.peak_rss_mb {
        println!("  peak memory            {mb:.0} MB");
    }
    for s in &f.stories {
        println!(
            "  seed {}: {} in {:.0} s{}",
            s.seed,
            if s.completed {
                "completed"
            } else {
                "not completed"
            },
            s.wall_seconds,
            if s.missing.is_empty() {
                String::new()
            } else {
                format!(" — missing: {}", s.missing.join(", "))
            }
        );
    }
    let missed = f.missed();
    if missed.is_empty() {
        println!("  goals: all met");
    } else {
        println!("  goals missed: {}", missed.join("; "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subject_is_read_from_the_text_not_the_link() {
        let en = script(Language::En).subject;
        assert!(names_subject(
            "Raise the Gripper Calibration wait to 5 s.",
            en
        ));
        assert!(!names_subject(
            "A great journey.\nDeliverable: employees/1/deliverables/task-1-gripper.md",
            en
        ));
        let zh = script(Language::ZhCn).subject;
        assert!(names_subject("夹爪校准超时：把等待改为五秒。", zh));
        assert!(!names_subject(
            "你可以在一句杯中写出美丽\n交付物：task-1-夹爪.md",
            zh
        ));
    }

    fn figures(on_topic: f64, readable: f64) -> Figures {
        Figures {
            model: "m".into(),
            language: Language::ZhCn,
            usable_thought_ratio: 1.0,
            cut_off_answers: 0,
            thought_seconds_p50: 1.0,
            thought_seconds_p95: 2.0,
            stories_completed: 1,
            stories_run: 1,
            zh_answers_ratio: 1.0,
            on_topic_ratio: on_topic,
            readable_ratio: readable,
            thoughts: 4,
            model_calls: 4,
            peak_rss_mb: None,
            stories: vec![],
        }
    }

    #[test]
    fn check_holds_on_topic_and_readable_work() {
        assert!(figures(1.0, 1.0).missed().is_empty());
        let m = figures(0.5, 0.5).missed();
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(m[0].starts_with("on topic 0.50") && m[1].starts_with("readable 0.50"));
    }

    #[test]
    fn a_report_is_read_by_its_own_words() {
        let report = "夹爪校准超时的说明写好了。\n草稿：由离线小模型写成，使用前请核对。\n\
                      交付物：employees/1/deliverables/task-1.md";
        assert!(check::readable(&report_words(report), Language::ZhCn));
        assert!(!check::readable(
            &report_words("The note on the gripper timeout is done.\n交付物：x"),
            Language::ZhCn
        ));
    }
}
