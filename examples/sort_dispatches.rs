//! Where the sort spends its time: every dispatch of a 1M-pair bitonic sort, timed alone.
//! `cargo run --release --example sort_dispatches [-- KEYS]`
use flurry::bench::{random_pairs, SortBench};

fn main() -> Result<(), flurry::Error> {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 20);
    let gpu = flurry::GpuContext::new_headless()?;
    let mut bench = SortBench::new(&gpu, n)?;
    bench.upload(&gpu, &random_pairs(n, 1, u32::MAX))?;
    let times = bench.dispatch_times(&gpu)?;
    let total: f64 = times.iter().map(|t| t.1).sum();
    for (what, ms) in &times {
        match what {
            Some((k, j, r)) => println!("k {k:>8} j {j:>8} steps {r}  {ms:8.3} ms"),
            None => println!("arguments                      {ms:8.3} ms"),
        }
    }
    println!("{} dispatches, {total:.1} ms in all", times.len());
    Ok(())
}
