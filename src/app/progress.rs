//! Where a long run is: frames done, rate and time left, on one line of stderr redrawn a
//! few times a second, only when stderr is a terminal (nothing extra in pipes and logs).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Redraws of the line at most this often.
const EVERY: Duration = Duration::from_millis(250);

/// A progress line for `total` frames of `label`.
pub struct Progress {
    label: String,
    total: u32,
    start: Instant,
    drawn: Option<Instant>,
    terminal: bool,
}

impl Progress {
    pub fn new(label: impl Into<String>, total: u32) -> Self {
        Progress {
            label: label.into(),
            total,
            start: Instant::now(),
            drawn: None,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Whether the line is drawn at all (stderr is a terminal).
    pub fn shown(&self) -> bool {
        self.terminal
    }

    /// `done` frames are done.
    pub fn frame(&mut self, done: u32) {
        if !self.terminal || self.drawn.is_some_and(|t| t.elapsed() < EVERY) {
            return;
        }
        let line = line(&self.label, done, self.total, self.start.elapsed());
        let _ = write!(std::io::stderr(), "\r{line}\x1b[K");
        self.drawn = Some(Instant::now());
    }
}

impl Drop for Progress {
    /// Clear the line, so what follows starts clean.
    fn drop(&mut self) {
        if self.drawn.is_some() {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}

/// `snow: frame 120/600 (20%), 3.4 frames/s, 2m21s left`.
pub fn line(label: &str, done: u32, total: u32, elapsed: Duration) -> String {
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
    let percent = 100 * done as u64 / total.max(1) as u64;
    let left = match (done, rate > 0.0) {
        (0, _) | (_, false) => "?".to_string(),
        _ => duration(total.saturating_sub(done) as f64 / rate),
    };
    format!("{label}: frame {done}/{total} ({percent}%), {rate:.1} frames/s, {left} left")
}

/// Seconds as `42s`, `2m21s` or `1h05m`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}
