//! Turning sampled token bytes into text deltas: UTF-8 reassembly (a token may end inside a
//! multi-byte character) and stop strings (text that may be the start of a stop string is
//! held back until it is known not to be one, so a streamed delta never shows part of it).

/// Collects token bytes and hands out the longest complete UTF-8 prefix.
#[derive(Debug, Default)]
pub(crate) struct Utf8Assembler {
    pending: Vec<u8>,
}

impl Utf8Assembler {
    /// Appends `bytes` and returns the text that is now complete.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(s) => {
                    out.push_str(s);
                    self.pending.clear();
                    return out;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    out.push_str(&String::from_utf8_lossy(&self.pending[..valid]));
                    match e.error_len() {
                        // An incomplete character at the end: wait for the next token.
                        None => {
                            self.pending.drain(..valid);
                            return out;
                        }
                        // Bytes that can never be valid: replace them and go on.
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..valid + bad);
                        }
                    }
                }
            }
        }
    }

    /// What is left at the end of generation (an unfinished character becomes U+FFFD).
    pub(crate) fn finish(&mut self) -> String {
        let out = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        out
    }
}

/// Watches the generated text for stop strings.
#[derive(Debug)]
pub(crate) struct StopFilter {
    stops: Vec<String>,
    held: String,
}

/// What [`StopFilter::push`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Filtered {
    /// Text that is safe to emit.
    pub(crate) emit: String,
    /// A stop string was seen: generation must end; the stop string and what follows it are dropped.
    pub(crate) stopped: bool,
}

impl StopFilter {
    pub(crate) fn new(stops: &[String]) -> Self {
        Self {
            stops: stops.iter().filter(|s| !s.is_empty()).cloned().collect(),
            held: String::new(),
        }
    }

    pub(crate) fn push(&mut self, text: &str) -> Filtered {
        self.held.push_str(text);
        if self.stops.is_empty() {
            return Filtered {
                emit: std::mem::take(&mut self.held),
                stopped: false,
            };
        }
        let first_stop = self
            .stops
            .iter()
            .filter_map(|s| self.held.find(s.as_str()))
            .min();
        if let Some(at) = first_stop {
            let emit = self.held[..at].to_owned();
            self.held.clear();
            return Filtered {
                emit,
                stopped: true,
            };
        }
        // Hold back the longest tail that could still grow into a stop string.
        let keep = self
            .stops
            .iter()
            .map(|s| longest_suffix_that_prefixes(&self.held, s))
            .max()
            .unwrap_or(0);
        let cut = self.held.len() - keep;
        let emit = self.held[..cut].to_owned();
        self.held.drain(..cut);
        Filtered {
            emit,
            stopped: false,
        }
    }

    /// The held-back tail, once generation ended for another reason.
    pub(crate) fn finish(&mut self) -> String {
        std::mem::take(&mut self.held)
    }
}

/// Length in bytes of the longest suffix of `text` that is a proper prefix of `stop`.
fn longest_suffix_that_prefixes(text: &str, stop: &str) -> usize {
    let max = text.len().min(stop.len().saturating_sub(1));
    (1..=max)
        .rev()
        .find(|&n| {
            let start = text.len() - n;
            text.is_char_boundary(start) && stop.as_bytes().starts_with(&text.as_bytes()[start..])
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_split_across_tokens_is_reassembled() {
        let mut a = Utf8Assembler::default();
        let bytes = "你好".as_bytes();
        assert_eq!(a.push(&bytes[..2]), "");
        assert_eq!(a.push(&bytes[2..4]), "你");
        assert_eq!(a.push(&bytes[4..]), "好");
        assert_eq!(a.finish(), "");
    }

    #[test]
    fn invalid_bytes_become_replacement_characters() {
        let mut a = Utf8Assembler::default();
        assert_eq!(a.push(b"a\xFFb"), "a\u{FFFD}b");
        assert_eq!(a.push(&"é".as_bytes()[..1]), "");
        assert_eq!(a.finish(), "\u{FFFD}");
    }

    #[test]
    fn stop_string_split_over_deltas_is_never_emitted() {
        let mut f = StopFilter::new(&["END".to_owned()]);
        assert_eq!(
            f.push("hello E"),
            Filtered {
                emit: "hello ".into(),
                stopped: false
            }
        );
        assert_eq!(
            f.push("N"),
            Filtered {
                emit: String::new(),
                stopped: false
            }
        );
        assert_eq!(
            f.push("D and more"),
            Filtered {
                emit: String::new(),
                stopped: true
            }
        );
    }

    #[test]
    fn a_false_start_is_released() {
        let mut f = StopFilter::new(&["END".to_owned()]);
        assert_eq!(f.push("xE").emit, "x");
        assert_eq!(f.push("Nx").emit, "ENx");
        assert_eq!(f.push("EN").emit, "");
        assert_eq!(f.finish(), "EN");
    }

    #[test]
    fn the_earliest_stop_wins_and_no_stops_pass_everything() {
        let mut f = StopFilter::new(&["b".to_owned(), "\n\n".to_owned()]);
        let got = f.push("a\n\nb");
        assert_eq!(got.emit, "a");
        assert!(got.stopped);
        let mut none = StopFilter::new(&[String::new()]);
        assert_eq!(none.push("abc").emit, "abc");
    }

    #[test]
    fn multibyte_text_near_a_stop_string_is_cut_on_char_boundaries() {
        let mut f = StopFilter::new(&["好的".to_owned()]);
        assert_eq!(f.push("你好").emit, "你");
        assert_eq!(f.push("吗").emit, "好吗");
    }
}
