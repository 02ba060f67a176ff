"""Developer tools: measurements and checks for people working on ygoterm, not features for
players (the TUI bench, the press counter, the evaluation fit, the card-pool load bench, the
import graph). `ygoterm bench` still runs the benchmarks."""
