use super::*;

#[test]
fn perft_start_shallow() {
    let mut game = Xiangqi::start(&XiangqiRules::default(), 0);
    assert_eq!(game.perft(1), 44);
    assert_eq!(game.perft(2), 1920);
    assert_eq!(game.perft(3), 79666);
}

/// The published perft lines, as far as `limit` nodes.
fn perft_lines(limit: u64) -> Vec<(String, u32, u64)> {
    include_str!("../../tests/data/xiangqi.perft")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            (parts[0].to_owned(), parts[1].parse().unwrap(), parts[2].parse().unwrap())
        })
        .filter(|&(_, _, nodes)| nodes <= limit)
        .collect()
}

#[test]
fn perft_published_shallow() {
    for (fen, depth, nodes) in perft_lines(2_000_000) {
        let mut game = Xiangqi::from_position(&XiangqiRules::default(), &fen).unwrap();
        assert_eq!(game.perft(depth), nodes, "{fen} depth {depth}");
    }
}

#[test]
#[ignore = "deep: run with --ignored for the benchmark lines"]
fn perft_published_deep() {
    for (fen, depth, nodes) in perft_lines(u64::MAX) {
        let mut game = Xiangqi::from_position(&XiangqiRules::default(), &fen).unwrap();
        let start = std::time::Instant::now();
        assert_eq!(game.perft(depth), nodes, "{fen} depth {depth}");
        let secs = start.elapsed().as_secs_f64();
        println!("{fen} | {depth} | {nodes} | {secs:.2}s | {:.1} Mnps", nodes as f64 / secs / 1e6);
    }
}

#[test]
#[ignore = "benchmark: perft 5 from the start"]
fn perft_start_benchmark() {
    let mut game = Xiangqi::start(&XiangqiRules::default(), 0);
    let start = std::time::Instant::now();
    let nodes = game.perft(5);
    let secs = start.elapsed().as_secs_f64();
    println!("perft 5: {nodes} nodes in {secs:.3}s = {:.1} Mnps", nodes as f64 / secs / 1e6);
    assert_eq!(nodes, 133_312_995);
}
