//! The built-in offline model: a GGUF run in-process by llama.cpp (`llama-cpp-2`).
//!
//! [`BuiltinModel`] loads the weights once and is shared behind an `Arc`; every request gets
//! its own small llama.cpp context (KV cache), so requests never see each other's state.
//! [`BuiltinClient`] puts it behind [`LlmClient`]. Generation is CPU-bound and runs on
//! tokio's blocking pool, never on the async threads.
//!
//! Defaults come from measurements on a 2-core machine (see RECIPES "Built-in model"):
//! one thread per generation (two threads collapse to a crawl as soon as anything else
//! runs) and one generation at a time per model ([`BuiltinOptions::max_parallel`]).
//! With a JSON schema the output is constrained by a GBNF grammar made from it, with the
//! object keys in the schema's `required` order (see [`grammar`]).

mod grammar;
mod text;

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;
use tokio::sync::{Semaphore, mpsc, oneshot};

use crate::types::{
    Capabilities, ChatMessage, CompletionRequest, CompletionResponse, CompletionStream,
    FinishReason, JsonForm, LlmClient, LlmError, ModelProfile, Role, StreamEvent, TextShape, Usage,
};

pub use crate::model_file::{
    APP_DATA_DIR_NAME, DEFAULT_MODEL_FILE, MODEL_PATH_ENV, default_model_path,
};

/// `max_tokens` when the request sets none and has no schema.
const DEFAULT_MAX_TOKENS_TEXT: u32 = 512;
/// `max_tokens` when the request sets none and has a schema: the grammar ends generation,
/// the cap only has to stay above its worst case (RECIPES: a tight cap cut 1 run in 20).
const DEFAULT_MAX_TOKENS_SCHEMA: u32 = 2048;
/// Tokens looked back on for the repetition penalty of shaped prose.
const REPEAT_WINDOW: i32 = 64;
/// Mild: enough to leave a loop, not enough to avoid the words a topic needs.
const REPEAT_PENALTY: f32 = 1.15;
/// Temperature when the request sets none.
const DEFAULT_TEMPERATURE: f32 = 0.7;
/// Prompt tokens decoded per llama.cpp call.
const PROMPT_BATCH: usize = 512;
/// Deltas buffered between the generating thread and a slow stream reader.
const STREAM_BUFFER: usize = 64;

/// How a [`BuiltinModel`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinOptions {
    /// CPU threads per generation (prompt and tokens). Default 1.
    pub threads: u32,
    /// Context length in tokens (prompt + answer), capped at the model's training length.
    /// Default 4096. Each running generation holds a KV cache of this size (~23 KB per
    /// token for SmolLM2-135M, so ~94 MB at 4096).
    pub context_len: u32,
    /// Generations that may run at once on this model; more wait their turn. Default 1.
    pub max_parallel: usize,
}

impl Default for BuiltinOptions {
    fn default() -> Self {
        Self {
            threads: 1,
            context_len: 4096,
            max_parallel: 1,
        }
    }
}

/// Timings of one generation, for benchmarks and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GenerationStats {
    pub prompt_tokens: u32,
    pub generated_tokens: u32,
    /// Chat template, tokenizing, grammar and context creation.
    pub setup_time: Duration,
    pub prompt_time: Duration,
    pub generation_time: Duration,
}

impl GenerationStats {
    pub fn prompt_tokens_per_sec(&self) -> f64 {
        per_sec(self.prompt_tokens, self.prompt_time)
    }
    pub fn generation_tokens_per_sec(&self) -> f64 {
        per_sec(self.generated_tokens, self.generation_time)
    }
}

fn per_sec(tokens: u32, time: Duration) -> f64 {
    let secs = time.as_secs_f64();
    if secs > 0.0 {
        f64::from(tokens) / secs
    } else {
        0.0
    }
}

/// llama.cpp's backend is process-global: initialised once, never freed.
fn backend() -> Result<&'static LlamaBackend, LlmError> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            // llama.cpp's own logging goes to tracing (target `llama-cpp-2`) instead of stderr.
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default());
            LlamaBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| LlmError::Builtin(format!("llama.cpp could not start: {e}")))
}

/// llama-cpp-2 notes that creating contexts from one model in parallel is unsound
/// (llama.cpp may adjust the model while doing so), so context creation takes turns.
static CONTEXT_CREATION: Mutex<()> = Mutex::new(());

/// A loaded GGUF model, shared by every request (`Arc`).
pub struct BuiltinModel {
    model: LlamaModel,
    path: PathBuf,
    name: String,
    options: BuiltinOptions,
    context_len: u32,
    load_time: Duration,
    permits: Arc<Semaphore>,
}

impl std::fmt::Debug for BuiltinModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinModel")
            .field("path", &self.path)
            .field("options", &self.options)
            .field("context_len", &self.context_len)
            .finish_non_exhaustive()
    }
}

impl BuiltinModel {
    /// Loads the GGUF at `path` (blocking: 0.1–0.4 s for the default model; use
    /// [`BuiltinModel::load_async`] from async code).
    pub fn load(path: impl AsRef<Path>, options: BuiltinOptions) -> Result<Arc<Self>, LlmError> {
        let path = path.as_ref();
        let started = Instant::now();
        if !path.is_file() {
            return Err(LlmError::Builtin(format!(
                "model file not found: {} (install it with scripts/install-model.sh, or point \
                 {MODEL_PATH_ENV} at a GGUF file)",
                path.display()
            )));
        }
        let backend = backend()?;
        let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default())
            .map_err(|e| {
                LlmError::Builtin(format!(
                    "could not load {} as a GGUF model: {e}",
                    path.display()
                ))
            })?;
        let trained = model.n_ctx_train();
        let context_len = options.context_len.max(64).min(trained.max(64));
        // The file name says which quantisation runs ("SmolLM2-135M-Instruct.Q4_1"); the
        // GGUF's `general.name` is often a training-run label.
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "builtin".to_owned());
        let load_time = started.elapsed();
        tracing::info!(
            path = %path.display(), %name, context_len, trained_context = trained,
            load_ms = load_time.as_millis() as u64, "built-in model loaded"
        );
        Ok(Arc::new(Self {
            model,
            path: path.to_path_buf(),
            name,
            options: BuiltinOptions {
                threads: options.threads.max(1),
                max_parallel: options.max_parallel.max(1),
                ..options
            },
            context_len,
            load_time,
            permits: Arc::new(Semaphore::new(options.max_parallel.max(1))),
        }))
    }

    /// [`BuiltinModel::load`] on the blocking pool.
    pub async fn load_async(path: PathBuf, options: BuiltinOptions) -> Result<Arc<Self>, LlmError> {
        tokio::task::spawn_blocking(move || Self::load(path, options))
            .await
            .map_err(|e| LlmError::Builtin(format!("model loading stopped: {e}")))?
    }

    /// Loads [`default_model_path`].
    pub fn load_default(options: BuiltinOptions) -> Result<Arc<Self>, LlmError> {
        Self::load(default_model_path(), options)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
    /// The model's name as reported in responses: its file name without `.gguf`.
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn options(&self) -> BuiltinOptions {
        self.options
    }
    /// Tokens a prompt and its answer may use together.
    pub fn context_len(&self) -> u32 {
        self.context_len
    }
    pub fn load_time(&self) -> Duration {
        self.load_time
    }

    /// Parameters in the loaded model.
    pub fn parameters(&self) -> u64 {
        self.model.n_params()
    }

    /// Tokens of `text` as this model reads it (no special tokens added).
    pub fn count_tokens(&self, text: &str) -> usize {
        self.model
            .vocab()
            .tokenize(text.as_bytes(), false, false)
            .len()
    }

    /// What the engine should expect of this model: one of at most
    /// [`SMALL_MODEL_PARAMETERS`](crate::types::SMALL_MODEL_PARAMETERS) gets work in
    /// short shaped steps.
    pub fn profile(&self) -> ModelProfile {
        ModelProfile {
            context_len: self.context_len,
            output_budget: (self.context_len / 4).min(DEFAULT_MAX_TOKENS_SCHEMA),
            small: self.parameters() <= crate::types::SMALL_MODEL_PARAMETERS,
        }
    }

    /// Reads `text` token by token through the grammar of `shape`, as generation would:
    /// how many tokens it takes, whether the grammar allows every one of them, and
    /// whether the answer may end there. Tests use it to check the shape's bound against
    /// the model's own tokenizer.
    pub fn check_shape(&self, shape: &TextShape, text: &str) -> Result<ShapeCheck, LlmError> {
        let gbnf = grammar::grammar_for_shape(shape).map_err(LlmError::Builtin)?;
        let mut sampler = LlamaSampler::grammar(&self.model, &gbnf, "root")
            .map_err(|e| LlmError::Builtin(format!("llama.cpp rejected a shape's grammar: {e}")))?;
        let vocab = self.model.vocab();
        let tokens = vocab.tokenize(text.as_bytes(), false, false);
        let allowed = |sampler: &mut LlamaSampler, token: LlamaToken| {
            let mut probe =
                LlamaTokenDataArray::new(vec![LlamaTokenData::new(token, 0.0, 0.0)], false);
            probe.apply_sampler(sampler);
            probe.data.first().is_some_and(|d| d.logit().is_finite())
        };
        let mut accepted = true;
        for &token in &tokens {
            if !allowed(&mut sampler, token) || sampler.try_accept(token).is_err() {
                accepted = false;
                break;
            }
        }
        let may_end = accepted && allowed(&mut sampler, vocab.eos());
        Ok(ShapeCheck {
            tokens: tokens.len(),
            accepted,
            may_end,
        })
    }

    /// How many tokens of this model `messages` become once rendered through its chat
    /// template: what the model reads for them.
    pub fn count_prompt_tokens(&self, messages: &[ChatMessage]) -> Result<usize, LlmError> {
        let prompt = self.render_prompt(messages)?;
        Ok(self.tokenize_prompt(&prompt)?.len())
    }

    /// Runs one request to the end on the calling thread. `on_delta` gets each piece of
    /// text as it is produced and returns `false` to stop early; `cancel` stops it too.
    pub fn generate_blocking(
        &self,
        req: &CompletionRequest,
        cancel: &AtomicBool,
        on_delta: &mut dyn FnMut(&str) -> bool,
    ) -> Result<(CompletionResponse, GenerationStats), LlmError> {
        let mut run = self.prepare(req)?;
        self.run(&mut run, cancel, on_delta)
    }

    fn prepare(&self, req: &CompletionRequest) -> Result<Prepared<'_>, LlmError> {
        let started = Instant::now();
        let backend = backend()?;
        let prompt = self.render_prompt(&req.messages)?;
        let tokens = self.tokenize_prompt(&prompt)?;
        let shape = req.shape.as_ref().filter(|_| req.json_schema.is_none());
        let max_tokens = self.answer_cap(req, shape, tokens.len() as u32)?;
        let grammar = self.grammar(req, shape)?;
        let chain = self.sampler_chain(req, shape);
        let ctx = self.new_context(backend)?;
        Ok(Prepared {
            ctx,
            tokens,
            max_tokens,
            grammar,
            chain,
            stop: text::StopFilter::new(&req.stop),
            setup_time: started.elapsed(),
        })
    }

    /// How many tokens the answer may take once the prompt's `n_prompt` are in the context.
    fn answer_cap(
        &self,
        req: &CompletionRequest,
        shape: Option<&TextShape>,
        n_prompt: u32,
    ) -> Result<u32, LlmError> {
        if n_prompt >= self.context_len {
            return Err(LlmError::Builtin(format!(
                "the prompt is {n_prompt} tokens but the built-in model's context holds {} \
                 (prompt and answer together): shorten the prompt",
                self.context_len
            )));
        }
        let room = self.context_len - n_prompt;
        // A shaped answer ends by itself within its bound, so the cap is set to that bound;
        // a prompt that leaves less room than the bound is refused rather than cut off.
        let wanted = req
            .max_tokens
            .filter(|&n| n > 0)
            .unwrap_or(if req.json_schema.is_some() {
                DEFAULT_MAX_TOKENS_SCHEMA
            } else {
                DEFAULT_MAX_TOKENS_TEXT
            });
        match shape {
            Some(shape) if shape.max_tokens() > room => Err(LlmError::Builtin(format!(
                "the prompt is {n_prompt} tokens, which leaves {room} of the built-in model's \
                 {} for the answer, but an answer of this shape may take {}: shorten the \
                 prompt or the answer",
                self.context_len,
                shape.max_tokens()
            ))),
            Some(shape) => Ok(shape.max_tokens()),
            None => Ok(wanted.min(room)),
        }
    }

    /// The grammar that holds the answer to the request's schema or shape, if it has one.
    fn grammar(
        &self,
        req: &CompletionRequest,
        shape: Option<&TextShape>,
    ) -> Result<Option<LlamaSampler>, LlmError> {
        let gbnf = match (&req.json_schema, shape) {
            (Some(spec), _) => Some((
                grammar::grammar_for_schema(&spec.schema).map_err(LlmError::Builtin)?,
                format!("schema {:?}", spec.name),
            )),
            (None, Some(shape)) => Some((
                grammar::grammar_for_shape(shape).map_err(LlmError::Builtin)?,
                "the answer's shape".to_owned(),
            )),
            (None, None) => None,
        };
        let Some((gbnf, what)) = gbnf else {
            return Ok(None);
        };
        LlamaSampler::grammar(&self.model, &gbnf, "root")
            .map(Some)
            .map_err(|e| {
                LlmError::Builtin(format!("llama.cpp rejected the grammar for {what}: {e}"))
            })
    }

    /// Greedy at temperature 0, else top-k → top-p → min-p → temperature → a seeded draw.
    fn sampler_chain(&self, req: &CompletionRequest, shape: Option<&TextShape>) -> LlamaSampler {
        let temperature = req.temperature.unwrap_or(DEFAULT_TEMPERATURE);
        if temperature <= 0.0 {
            return LlamaSampler::greedy();
        }
        // Small models fall into loops in free text ("the the the", a line said again);
        // a mild repetition penalty over the last tokens keeps shaped prose moving.
        let penalties = matches!(shape, Some(TextShape::Text { .. })).then(|| {
            LlamaSampler::penalties(
                self.model.n_vocab(),
                REPEAT_WINDOW,
                REPEAT_PENALTY,
                0.0,
                0.0,
            )
        });
        LlamaSampler::chain(
            penalties.into_iter().chain([
                LlamaSampler::top_k(40),
                LlamaSampler::top_p(0.95, 1),
                LlamaSampler::min_p(0.05, 1),
                LlamaSampler::temp(temperature),
                LlamaSampler::dist(req.seed.map_or_else(seed, |s| (s ^ (s >> 32)) as u32)),
            ]),
            true,
        )
    }

    fn new_context(&self, backend: &LlamaBackend) -> Result<LlamaContext<'_>, LlmError> {
        let threads = i32::try_from(self.options.threads).unwrap_or(1);
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(self.context_len))
            .with_n_batch(PROMPT_BATCH as u32)
            .with_n_threads(threads)
            .with_n_threads_batch(threads)
            .with_no_perf(true);
        let _turn = CONTEXT_CREATION.lock().unwrap_or_else(|p| p.into_inner());
        self.model.new_context(backend, params).map_err(|e| {
            LlmError::Builtin(format!(
                "could not create a llama.cpp context of {} tokens: {e}",
                self.context_len
            ))
        })
    }

    fn run(
        &self,
        p: &mut Prepared<'_>,
        cancel: &AtomicBool,
        on_delta: &mut dyn FnMut(&str) -> bool,
    ) -> Result<(CompletionResponse, GenerationStats), LlmError> {
        let mut batch = LlamaBatch::new(PROMPT_BATCH, 1);
        let prompt_started = Instant::now();
        let pos = read_prompt(p, &mut batch, cancel)?;
        let prompt_time = prompt_started.elapsed();
        let gen_started = Instant::now();
        let answer = self.generate(p, &mut batch, pos, cancel, on_delta)?;
        let generation_time = gen_started.elapsed();
        let stats = GenerationStats {
            prompt_tokens: p.tokens.len() as u32,
            generated_tokens: answer.tokens,
            setup_time: p.setup_time,
            prompt_time,
            generation_time,
        };
        tracing::debug!(
            prompt_tokens = stats.prompt_tokens,
            generated_tokens = stats.generated_tokens,
            prompt_tps = stats.prompt_tokens_per_sec(),
            gen_tps = stats.generation_tokens_per_sec(),
            finish = ?answer.finish,
            "built-in generation"
        );
        let response = CompletionResponse {
            text: answer.text,
            usage: Usage {
                input_tokens: stats.prompt_tokens,
                output_tokens: answer.tokens,
                ..Usage::default()
            },
            finish_reason: answer.finish,
            model: self.name.clone(),
        };
        Ok((response, stats))
    }

    /// Samples and decodes one token at a time from the prompt's last logits until the
    /// model ends, a stop string appears or the cap is reached, passing text on as it
    /// comes.
    fn generate(
        &self,
        p: &mut Prepared<'_>,
        batch: &mut LlamaBatch,
        mut pos: i32,
        cancel: &AtomicBool,
        on_delta: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Generated, LlmError> {
        let vocab = self.model.vocab();
        let mut logits_at = batch.n_tokens() - 1;
        let mut utf8 = text::Utf8Assembler::default();
        let mut out = Generated {
            text: String::new(),
            tokens: 0,
            finish: FinishReason::Length,
        };
        let mut hit_stop_string = false;
        let mut piece = Vec::new();
        while out.tokens < p.max_tokens {
            if cancel.load(Ordering::Relaxed) {
                return Err(LlmError::Builtin("generation cancelled".into()));
            }
            let token = sample(&p.ctx, logits_at, p.grammar.as_mut(), &mut p.chain)?;
            if vocab.is_eog(token) {
                out.finish = FinishReason::Stop;
                break;
            }
            out.tokens += 1;
            piece.clear();
            vocab.token_to_piece_into(token, &mut piece, false, None);
            let filtered = p.stop.push(&utf8.push(&piece));
            if !emit(&filtered.emit, &mut out.text, on_delta) {
                return Err(LlmError::Builtin("the reader went away".into()));
            }
            if filtered.stopped {
                out.finish = FinishReason::Stop;
                hit_stop_string = true;
                break;
            }
            if out.tokens == p.max_tokens {
                break; // no need to decode a token nobody will read
            }
            batch.clear();
            batch.add(token, pos, &[0], true).map_err(batch_err)?;
            pos += 1;
            p.ctx.decode(batch).map_err(decode_err)?;
            logits_at = 0;
        }
        if !hit_stop_string {
            // Flush what was held back: an unfinished character, a possible stop-string start.
            let tail = p.stop.push(&utf8.finish());
            let mut rest = tail.emit;
            if !tail.stopped {
                rest.push_str(&p.stop.finish());
            }
            emit(&rest, &mut out.text, on_delta);
        }
        Ok(out)
    }

    fn render_prompt(&self, messages: &[ChatMessage]) -> Result<String, LlmError> {
        if messages.is_empty() {
            return Err(LlmError::Builtin("the request has no messages".into()));
        }
        let chat = messages
            .iter()
            .map(|m| {
                let role = match m.role {
                    Role::System => "system",
                    Role::User => "user",
                    Role::Assistant => "assistant",
                };
                LlamaChatMessage::new(role.to_owned(), m.content.clone())
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                LlmError::Builtin(format!("a message cannot be passed to llama.cpp: {e}"))
            })?;
        // The GGUF's own template; llama.cpp recognises the common ones. A model without one,
        // or with one llama.cpp does not know, gets ChatML.
        let own = self.model.chat_template(None).ok();
        if let Some(tmpl) = &own
            && let Ok(prompt) = self.model.apply_chat_template(tmpl, &chat, true)
        {
            return Ok(prompt);
        }
        let chatml = LlamaChatTemplate::new("chatml")
            .map_err(|e| LlmError::Builtin(format!("chat template: {e}")))?;
        self.model
            .apply_chat_template(&chatml, &chat, true)
            .map_err(|e| LlmError::Builtin(format!("could not apply the chat template: {e}")))
    }

    fn tokenize_prompt(&self, prompt: &str) -> Result<Vec<LlamaToken>, LlmError> {
        let vocab = self.model.vocab();
        let mut tokens = vocab.tokenize(prompt.as_bytes(), true, true);
        // Templates that write BOS themselves would otherwise get it twice.
        if tokens.len() >= 2 && tokens[0] == tokens[1] && tokens[0] == vocab.bos() {
            tokens.remove(0);
        }
        if tokens.is_empty() {
            return Err(LlmError::Builtin("the prompt is empty".into()));
        }
        Ok(tokens)
    }
}

/// A text read through a shape's grammar ([`BuiltinModel::check_shape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeCheck {
    /// Tokens the text takes with this model's tokenizer.
    pub tokens: usize,
    /// The grammar allows every one of them, in order.
    pub accepted: bool,
    /// After them, the grammar allows the end of the answer.
    pub may_end: bool,
}

/// What one request needs while it generates.
struct Prepared<'m> {
    ctx: LlamaContext<'m>,
    tokens: Vec<LlamaToken>,
    max_tokens: u32,
    grammar: Option<LlamaSampler>,
    chain: LlamaSampler,
    stop: text::StopFilter,
    setup_time: Duration,
}

/// The answer as generation left it.
struct Generated {
    text: String,
    tokens: u32,
    finish: FinishReason,
}

/// Decodes the prompt in batches, asking for logits of its last token only; returns the
/// position the answer starts at.
fn read_prompt(
    p: &mut Prepared<'_>,
    batch: &mut LlamaBatch,
    cancel: &AtomicBool,
) -> Result<i32, LlmError> {
    let mut pos: i32 = 0;
    let last = p.tokens.len().saturating_sub(1);
    for (chunk_no, chunk) in p.tokens.chunks(PROMPT_BATCH).enumerate() {
        batch.clear();
        for (i, &token) in chunk.iter().enumerate() {
            let is_last = chunk_no * PROMPT_BATCH + i == last;
            batch.add(token, pos, &[0], is_last).map_err(batch_err)?;
            pos += 1;
        }
        p.ctx.decode(batch).map_err(decode_err)?;
        if cancel.load(Ordering::Relaxed) {
            return Err(LlmError::Builtin("generation cancelled".into()));
        }
    }
    Ok(pos)
}

/// Appends `s` to the answer and hands it to the reader; `false` when the reader went away.
fn emit(s: &str, out: &mut String, on_delta: &mut dyn FnMut(&str) -> bool) -> bool {
    if s.is_empty() {
        return true;
    }
    out.push_str(s);
    on_delta(s)
}

fn decode_err(e: llama_cpp_2::DecodeError) -> LlmError {
    LlmError::Builtin(format!("llama.cpp could not decode: {e}"))
}

fn batch_err(e: llama_cpp_2::llama_batch::BatchAddError) -> LlmError {
    LlmError::Builtin(format!("llama.cpp batch: {e}"))
}

/// Picks the next token. Like llama.cpp's common sampler, it samples without the grammar
/// first and only filters the whole vocabulary through the grammar when that token is not
/// allowed: checking ~49k tokens against a grammar on every step costs more than the model.
fn sample(
    ctx: &LlamaContext<'_>,
    idx: i32,
    grammar: Option<&mut LlamaSampler>,
    chain: &mut LlamaSampler,
) -> Result<LlamaToken, LlmError> {
    let no_token = || LlmError::Builtin("the sampler chose no token".into());
    let mut candidates = ctx.token_data_array_ith(idx);
    candidates.apply_sampler(chain);
    let mut token = candidates.selected_token().ok_or_else(no_token)?;
    if let Some(grammar) = grammar {
        let mut probe = LlamaTokenDataArray::new(vec![LlamaTokenData::new(token, 0.0, 0.0)], false);
        probe.apply_sampler(grammar);
        let allowed = probe.data.first().is_some_and(|d| d.logit().is_finite());
        if !allowed {
            let mut constrained = ctx.token_data_array_ith(idx);
            constrained.apply_sampler(grammar);
            if !constrained.data.iter().any(|d| d.logit().is_finite()) {
                return Err(LlmError::Builtin("the grammar allows no next token".into()));
            }
            constrained.apply_sampler(chain);
            token = constrained.selected_token().ok_or_else(no_token)?;
        }
        grammar
            .try_accept(token)
            .map_err(|e| LlmError::Builtin(format!("the grammar rejected a token: {e}")))?;
    }
    chain.accept(token);
    Ok(token)
}

fn seed() -> u32 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos() ^ (d.as_secs() as u32))
        .unwrap_or(0x5eed)
}

/// Sets the flag when dropped: a caller that stops waiting (timeout, cancelled task) stops
/// the generation on the blocking pool at its next token.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// [`LlmClient`] over a shared [`BuiltinModel`]. Provider id `builtin`; the request's
/// `model` field is ignored (the loaded model answers).
#[derive(Clone, Debug)]
pub struct BuiltinClient {
    model: Arc<BuiltinModel>,
}

impl BuiltinClient {
    pub fn new(model: Arc<BuiltinModel>) -> Self {
        Self { model }
    }

    pub fn model(&self) -> &Arc<BuiltinModel> {
        &self.model
    }

    /// [`LlmClient::complete`] plus the timings.
    pub async fn complete_with_stats(
        &self,
        req: CompletionRequest,
    ) -> Result<(CompletionResponse, GenerationStats), LlmError> {
        let permit = acquire(&self.model).await?;
        let cancel = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(cancel.clone());
        let model = self.model.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            model.generate_blocking(&req, &cancel, &mut |_| true)
        })
        .await
        .map_err(|e| LlmError::Builtin(format!("generation stopped: {e}")))?
    }
}

async fn acquire(model: &BuiltinModel) -> Result<tokio::sync::OwnedSemaphorePermit, LlmError> {
    model
        .permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| LlmError::Builtin("the built-in model is shutting down".into()))
}

#[async_trait]
impl LlmClient for BuiltinClient {
    fn provider_id(&self) -> &str {
        "builtin"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            json_schema: true,
            json_object: true,
            stream: true,
        }
    }

    fn profile(&self, _model: &str) -> ModelProfile {
        self.model.profile()
    }

    /// The grammar made from the schema is the only form, and it always holds.
    fn json_forms(&self) -> Vec<JsonForm> {
        vec![JsonForm::JsonSchema]
    }

    async fn complete(&self, req: CompletionRequest) -> Result<CompletionResponse, LlmError> {
        self.complete_with_stats(req).await.map(|(resp, _)| resp)
    }

    /// Setup errors (missing messages, prompt too long, bad schema) come back here, before
    /// any stream; errors while generating come as the stream's last item.
    async fn stream(&self, req: CompletionRequest) -> Result<CompletionStream, LlmError> {
        let permit = acquire(&self.model).await?;
        let model = self.model.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let cancel_in_thread = cancel.clone();
        let (ready_tx, ready_rx) = oneshot::channel::<Result<(), LlmError>>();
        let (tx, rx) = mpsc::channel::<Result<StreamEvent, LlmError>>(STREAM_BUFFER);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut prepared = match model.prepare(&req) {
                Ok(p) => p,
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return;
                }
            };
            if ready_tx.send(Ok(())).is_err() {
                return;
            }
            let result = model.run(&mut prepared, &cancel_in_thread, &mut |delta| {
                tx.blocking_send(Ok(StreamEvent::Delta(delta.to_owned())))
                    .is_ok()
            });
            let last = result.map(|(resp, _)| StreamEvent::Done {
                usage: resp.usage,
                finish_reason: resp.finish_reason,
            });
            let _ = tx.blocking_send(last);
        });
        ready_rx
            .await
            .map_err(|_| LlmError::Builtin("generation stopped before it started".into()))??;
        let state = (rx, CancelOnDrop(cancel), false);
        let stream = futures::stream::unfold(state, |(mut rx, guard, ended)| async move {
            if ended {
                return None;
            }
            let item = rx.recv().await?;
            let ended = !matches!(item, Ok(StreamEvent::Delta(_)));
            Some((item, (rx, guard, ended)))
        });
        Ok(Box::pin(stream))
    }
}
