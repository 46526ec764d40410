//! `qi datagen` and `qi data`: self-play training data, and what a data file holds (the lab's
//! commands over [`qi_lab`]).

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use qi_ai::AnyEngine;
use qi_lab::data::{DataReader, DataWriter, Wdl};
use qi_lab::datagen::{SelfPlay, play_game};

/// The value after a flag, or a message naming the flag.
fn number<T: std::str::FromStr>(
    flag: &str,
    text: Option<&String>,
    what: &str,
) -> Result<T, String> {
    text.ok_or_else(|| format!("{flag} needs a value"))?
        .parse()
        .map_err(|_| format!("{flag} takes {what}"))
}

/// `qi datagen --game G --out FILE [--games N] [--nodes N] [--random-plies N] [--jobs N]
/// [--seed S] [--rules k=v,...] [--append]`.
///
/// # Errors
/// A message for bad arguments or a file that cannot be written.
pub fn run_datagen(args: &[String]) -> Result<String, String> {
    let mut variant = "chess".to_owned();
    let mut rules = String::new();
    let mut out = None;
    let mut games = 100u64;
    let mut jobs = 1u64;
    let mut seed = 1u64;
    let mut append = false;
    let mut nodes = None;
    let mut random_plies = None;
    let mut max_opening = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--game" => variant = iter.next().cloned().ok_or("--game needs a value")?,
            "--rules" => rules = iter.next().cloned().ok_or("--rules needs a value")?,
            "--out" => out = Some(iter.next().cloned().ok_or("--out needs a file")?),
            "--games" => games = number(arg, iter.next(), "a number of games")?,
            "--nodes" => nodes = Some(number::<u64>(arg, iter.next(), "a number of nodes")?),
            "--random-plies" => {
                random_plies = Some(number::<usize>(arg, iter.next(), "a number of plies")?);
            }
            "--max-opening" => {
                max_opening = Some(number::<i32>(arg, iter.next(), "a score above 0")?);
            }
            "--jobs" => jobs = number(arg, iter.next(), "a number of games at once, 1 to 64")?,
            "--seed" => seed = number(arg, iter.next(), "a number")?,
            "--append" => append = true,
            other => return Err(format!("unknown datagen argument {other:?}")),
        }
    }
    let out = out.ok_or("--out FILE is needed: where the games go")?;
    if !(1..=64).contains(&jobs) {
        return Err("--jobs takes a number of games at once, 1 to 64".into());
    }
    let mut setup = SelfPlay::new(&variant, &rules)?;
    if let Some(nodes) = nodes {
        if nodes == 0 {
            return Err("--nodes takes a number of nodes above 0".into());
        }
        setup.nodes = nodes;
    }
    if let Some(plies) = random_plies {
        setup.random_plies = plies.min(40);
    }
    if let Some(score) = max_opening {
        if score <= 0 {
            return Err("--max-opening takes a score above 0".into());
        }
        setup.max_opening_score = score;
    }
    let exists = std::path::Path::new(&out).exists();
    let mut writer = if exists {
        if !append {
            return Err(format!(
                "{out} exists: pass --append to add games to it (with another --seed, or they repeat)"
            ));
        }
        // A run that was stopped may have left half a game at the end: cut it off, or the new
        // games would be read as its moves.
        let mut reader =
            DataReader::new(BufReader::new(File::open(&out).map_err(|e| format!("{out}: {e}"))?))
                .map_err(|e| format!("{out}: {e}"))?;
        let mut damage = None;
        for game in reader.by_ref() {
            if let Err(e) = game {
                damage = Some(e);
            }
        }
        let file = OpenOptions::new().append(true).open(&out).map_err(|e| format!("{out}: {e}"))?;
        if let Some(damage) = damage {
            let keep = reader.complete_bytes();
            file.set_len(keep).map_err(|e| format!("{out}: {e}"))?;
            eprintln!("{out}: damaged {damage}; cut back to its last complete game (byte {keep})");
        }
        DataWriter::appending(BufWriter::new(file))
    } else {
        let file = File::create(&out).map_err(|e| format!("{out}: {e}"))?;
        DataWriter::new(BufWriter::new(file)).map_err(|e| format!("{out}: {e}"))?
    };

    let next = AtomicU64::new(0);
    let (sender, games_done) = mpsc::channel();
    let started = Instant::now();
    let mut totals = [0u64; 3];
    let mut positions = 0u64;
    let mut written = 0u64;
    // Seeds whose openings all went off balance (or ended the game): a run where most do
    // needs a wider --max-opening, and says so rather than go quiet.
    let mut given_up = 0u64;
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (setup, next) = (&setup, &next);
            scope.spawn(move || {
                let mut engine = AnyEngine::default();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        return;
                    }
                    let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(index);
                    if sender.send(play_game(setup, &mut engine, game_seed)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for game in games_done {
            let Some(game) = game else {
                given_up += 1;
                if given_up.is_power_of_two() {
                    eprintln!(
                        "{given_up} seeds given up: their openings were all judged beyond {} \
                         (--max-opening), ended the game, or could not be played",
                        setup.max_opening_score
                    );
                }
                continue;
            };
            writer.write(&game).map_err(|e| format!("{out}: {e}"))?;
            written += 1;
            positions += game.kept() as u64;
            totals[match game.result {
                Wdl::Win => 0,
                Wdl::Draw => 1,
                Wdl::Loss => 2,
            }] += 1;
            if written.is_multiple_of(10) || written == games {
                writer.flush().map_err(|e| format!("{out}: {e}"))?;
                let seconds = started.elapsed().as_secs_f64();
                eprintln!(
                    "{written}/{games} games, {positions} positions kept ({:.0}/s), first player +{} ={} -{}",
                    positions as f64 / seconds.max(1e-9),
                    totals[0],
                    totals[1],
                    totals[2],
                );
            }
        }
        Ok(())
    })?;
    writer.flush().map_err(|e| format!("{out}: {e}"))?;
    Ok(format!(
        "{written} games, {positions} positions kept, in {out} ({:.1} s; first player +{} ={} -{}){}\n",
        started.elapsed().as_secs_f64(),
        totals[0],
        totals[1],
        totals[2],
        if given_up > 0 { format!("; {given_up} seeds given up") } else { String::new() },
    ))
}

/// `qi data FILE...`: each file's games, positions kept and results, or where it is damaged.
///
/// # Errors
/// A message for a file that cannot be opened or read to its end.
pub fn run_data(args: &[String]) -> Result<String, String> {
    if args.is_empty() {
        return Err("name one or more data files".into());
    }
    let mut report = String::new();
    for path in args {
        let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        let reader = DataReader::new(BufReader::new(file)).map_err(|e| format!("{path}: {e}"))?;
        let (mut games, mut plies, mut kept) = (0u64, 0u64, 0u64);
        let mut totals = [0u64; 3];
        let mut kinds = std::collections::BTreeSet::new();
        let mut damage = None;
        for game in reader {
            let game = match game {
                Ok(game) => game,
                Err(e) => {
                    damage = Some(format!("{path}: game {}: {e}", games + 1));
                    break;
                }
            };
            games += 1;
            plies += game.moves.len() as u64;
            kept += game.kept() as u64;
            kinds.insert(format!("{:?}", game.start.kind()).to_lowercase());
            totals[match game.result {
                Wdl::Win => 0,
                Wdl::Draw => 1,
                Wdl::Loss => 2,
            }] += 1;
        }
        let kinds: Vec<String> = kinds.into_iter().collect();
        report.push_str(&format!(
            "{path}: {} {games} games, {plies} plies, {kept} positions kept ({:.1} bytes each); first player +{} ={} -{}\n",
            kinds.join("+"),
            size as f64 / kept.max(1) as f64,
            totals[0],
            totals[1],
            totals[2],
        ));
        if let Some(damage) = damage {
            // The games before the damage are summarised; the status says the file is damaged.
            print!("{report}");
            return Err(damage);
        }
    }
    Ok(report)
}

/// Whether a game is one of the tenth held out of the fit: by a hash of its start and moves, so
/// the same games are held out however the data was ordered (`qi datagen --jobs` writes games as
/// they finish).
fn held_out(game: &qi_lab::data::GameData) -> bool {
    use std::hash::{Hash, Hasher};
    // SipHash with fixed keys: the same answer on every run and machine.
    let mut hasher = std::hash::DefaultHasher::new();
    game.start.position().hash(&mut hasher);
    game.moves.hash(&mut hasher);
    hasher.finish().is_multiple_of(10)
}

/// Reads the games of `files` in order, handing each to `visit`, which replays it (`Err(ply)` for
/// a move that cannot be played) and says whether enough positions have been read (`Ok(true)`
/// stops). Returns the number of games read.
///
/// # Errors
/// A message naming the file and the game for a file that cannot be read, damaged data, or a
/// game that does not replay.
fn read_games(
    files: &[String],
    visit: &mut dyn FnMut(&qi_lab::data::GameData) -> Result<bool, usize>,
) -> Result<usize, String> {
    let mut games = 0usize;
    for path in files {
        let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let reader = DataReader::new(BufReader::new(file)).map_err(|e| format!("{path}: {e}"))?;
        for game in reader {
            let game = game.map_err(|e| format!("{path}: game {}: {e}", games + 1))?;
            games += 1;
            let full = visit(&game)
                .map_err(|ply| format!("{path}: game {games}: move {ply} cannot be played"))?;
            if full {
                return Ok(games);
            }
        }
    }
    Ok(games)
}

/// `qi tune --game G --data FILE... [--epochs N] [--rate R] [--lambda L] [--threads N]
/// [--l2 X] [--most N] [--write]`: fits the game's evaluation weights to the data's positions.
///
/// # Errors
/// A message for bad arguments, a damaged data file, or a weights file that cannot be written.
pub fn run_tune(args: &[String]) -> Result<String, String> {
    use qi_lab::models::Model;
    use qi_lab::tune::{Dataset, Descent, best_k, fit};

    let mut variant = "chess".to_owned();
    let mut files = Vec::new();
    let mut descent = Descent::default();
    let mut lambda = 0.5f64;
    let mut most = usize::MAX;
    let mut write = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--game" => variant = iter.next().cloned().ok_or("--game needs a value")?,
            "--data" => files.push(iter.next().cloned().ok_or("--data needs a file")?),
            "--epochs" => descent.epochs = number(arg, iter.next(), "a number of passes")?,
            "--rate" => descent.rate = number(arg, iter.next(), "a step size")?,
            "--lambda" => lambda = number(arg, iter.next(), "a share of the result, 0 to 1")?,
            "--threads" => descent.threads = number(arg, iter.next(), "a number of threads")?,
            "--most" => most = number(arg, iter.next(), "a number of positions")?,
            "--l2" => descent.l2 = number(arg, iter.next(), "a prior's strength, 0 or more")?,
            "--write" => write = true,
            other => return Err(format!("unknown tune argument {other:?}")),
        }
    }
    if files.is_empty() {
        return Err("--data FILE is needed (made by qi datagen)".into());
    }
    if !(0.0..=1.0).contains(&lambda) {
        return Err("--lambda takes a share of the result, 0 to 1".into());
    }
    if !(descent.rate > 0.0 && descent.rate <= 100.0) {
        return Err("--rate takes a step size above 0, at most 100".into());
    }
    descent.threads = descent.threads.clamp(1, 64);
    if !(descent.l2 >= 0.0 && descent.l2.is_finite()) {
        return Err("--l2 takes a prior's strength, 0 or more".into());
    }
    let (kind, _) = qi_rules::any::parse_variant(&variant).map_err(|e| e.to_string())?;
    let model = Model::for_game(kind);

    // A tenth of the games is held out: their loss says whether the fit generalises.
    let (mut train, mut check) = (Dataset::default(), Dataset::default());
    let games = read_games(&files, &mut |game| {
        let into = if held_out(game) { &mut check } else { &mut train };
        game.for_each_position(|position, score, result| {
            if let Some(sample) = model.sample(position, score, result) {
                into.push(&sample);
            }
        })?;
        Ok(train.len() + check.len() >= most)
    })?;
    if train.is_empty() {
        return Err(format!("no {variant} positions in the data"));
    }
    let started = Instant::now();
    let k = best_k(&train, &model.weights, descent.threads);
    train.blend(lambda, k);
    // The held-out games are judged by their results alone, whatever the fit aimed at: a fit
    // to the search's scores is worth keeping only if it predicts games better.
    check.blend(1.0, k);
    let before = (
        train.loss(&model.weights, k, descent.threads),
        check.loss(&model.weights, k, descent.threads),
    );
    eprintln!(
        "{} positions to fit, {} held out, from {games} games; k = {k:.6} ({:.2} x Elo's); loss {:.6}, held-out games' results {:.6}",
        train.len(),
        check.len(),
        k / qi_lab::tune::ELO_K,
        before.0,
        before.1
    );
    let mut weights = model.weights.clone();
    let frozen = vec![false; weights.len()];
    let after = fit(&train, &mut weights, &frozen, k, descent, &mut |epoch, loss| {
        if epoch % 100 == 0 {
            eprintln!("epoch {epoch}: loss {loss:.6}");
        }
    });
    let held_out = check.loss(&weights, k, descent.threads);
    let mut report = format!(
        "{variant}: {} positions ({games} games), k {k:.6}, lambda {lambda}; loss {:.6} -> {after:.6}, held-out games' results {:.6} -> {held_out:.6} ({} epochs, {:.0} s)\n",
        train.len(),
        before.0,
        before.1,
        descent.epochs,
        started.elapsed().as_secs_f64(),
    );
    if let Some(bad) = weights.iter().position(|w| !w.is_finite() || w.abs() > 100_000.0) {
        return Err(format!(
            "the fit diverged (weight {bad} is {}): try a smaller --rate; nothing written",
            weights[bad]
        ));
    }
    if write {
        let made_from = format!(
            "Made from: qi tune --game {variant} --epochs {} --rate {} --lambda {lambda} --l2 {} on {} positions of {games} games\n\
             ({}), starting from the weights before; k {k:.6}; loss {:.6} -> {after:.6}, held-out games' results {:.6} -> {held_out:.6}.",
            descent.epochs,
            descent.rate,
            descent.l2,
            train.len() + check.len(),
            // The files' names, not where they lay on the machine that fitted them.
            files
                .iter()
                .map(|file| {
                    std::path::Path::new(file)
                        .file_name()
                        .map_or_else(|| file.clone(), |name| name.to_string_lossy().into_owned())
                })
                .collect::<Vec<_>>()
                .join(", "),
            before.0,
            before.1,
        );
        std::fs::write(model.file, model.rust_source(&weights, &made_from))
            .map_err(|e| format!("{} (run qi tune from the workspace's root): {e}", model.file))?;
        report.push_str(&format!("wrote {}\n", model.file));
    }
    Ok(report)
}

/// `qi train --game G --data FILE... --out FILE [--epochs N] [--batch N] [--rate R]
/// [--lambda L] [--threads N] [--seed S] [--most N] [--mirror] [--on-top]`: trains the game's network on the data's
/// positions from random weights, and writes it (the engine's file format).
///
/// # Errors
/// A message for bad arguments, a damaged data file, a game with no network yet, or a file that
/// cannot be written.
pub fn run_train(args: &[String]) -> Result<String, String> {
    use qi_ai::net::Network;
    use qi_lab::nets::{NetData, Training, initial_network, input_count, loss, train};

    let mut variant = "chess".to_owned();
    let mut files = Vec::new();
    let mut out = None;
    let mut mirrored = false;
    let mut on_top = false;
    let mut training = Training::default();
    let mut lambda = 0.5f64;
    let mut most = usize::MAX;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--game" => variant = iter.next().cloned().ok_or("--game needs a value")?,
            "--data" => files.push(iter.next().cloned().ok_or("--data needs a file")?),
            "--out" => out = Some(iter.next().cloned().ok_or("--out needs a file")?),
            "--epochs" => training.epochs = number(arg, iter.next(), "a number of passes")?,
            "--batch" => training.batch = number(arg, iter.next(), "a number of positions")?,
            "--rate" => training.rate = number(arg, iter.next(), "a step size")?,
            "--lambda" => lambda = number(arg, iter.next(), "a share of the result, 0 to 1")?,
            "--threads" => training.threads = number(arg, iter.next(), "a number of threads")?,
            "--seed" => training.seed = number(arg, iter.next(), "a number")?,
            "--most" => most = number(arg, iter.next(), "a number of positions")?,
            "--mirror" => mirrored = true,
            "--on-top" => on_top = true,
            other => return Err(format!("unknown train argument {other:?}")),
        }
    }
    let out = out.ok_or("--out FILE is needed (where the network is written)")?;
    if files.is_empty() {
        return Err("--data FILE is needed (made by qi datagen)".into());
    }
    if !(0.0..=1.0).contains(&lambda) {
        return Err("--lambda takes a share of the result, 0 to 1".into());
    }
    if !(training.rate > 0.0 && training.rate <= 1.0) {
        return Err("--rate takes a step size above 0, at most 1".into());
    }
    if !(1..=1_000_000).contains(&training.batch) || !(1..=10_000).contains(&training.epochs) {
        return Err("--batch takes 1 to 1000000 positions, --epochs 1 to 10000 passes".into());
    }
    training.threads = training.threads.clamp(1, 64);
    let (kind, _) = qi_rules::any::parse_variant(&variant).map_err(|e| e.to_string())?;
    let inputs =
        input_count(kind).ok_or_else(|| format!("{variant} has no network yet (chess has)"))?;

    let (mut data, mut check) = (NetData::default(), NetData::default());
    let games = read_games(&files, &mut |game| {
        let into = if held_out(game) { &mut check } else { &mut data };
        let mirror = mirrored && !held_out(game);
        game.for_each_position(|position, score, result| {
            into.push_game(position, score, result, mirror, on_top);
        })?;
        Ok(data.len() + check.len() >= most)
    })?;
    if data.is_empty() {
        return Err(format!("no {variant} positions in the data"));
    }
    let started = Instant::now();
    let k = data.score_k();
    data.blend(lambda, k);
    check.blend(1.0, k);
    eprintln!(
        "{} positions to train on, {} held out, from {games} games; k = {k:.6} (fitted to the search's scores)",
        data.len(),
        check.len()
    );
    let mut net = initial_network(inputs, training.seed);
    net.on_top = on_top;
    let threads = training.threads;
    let after = train(&mut net, &data, k, training, &mut |epoch, train_loss, net| {
        eprintln!(
            "epoch {epoch}: loss {train_loss:.6}, held-out games' results {:.6} ({:.0} s)",
            loss(net, &check, k, threads),
            started.elapsed().as_secs_f64()
        );
    });
    let held_out = loss(&net, &check, k, threads);
    let quantised = Network::from_floats(&net).map_err(|e| e.to_string())?;
    std::fs::write(&out, quantised.to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    Ok(format!(
        "{variant}: {} positions ({games} games), k {k:.6}, lambda {lambda}; loss {after:.6}, held-out games' results {held_out:.6} ({} epochs, {:.0} s); wrote {out}\n",
        data.len(),
        training.epochs,
        started.elapsed().as_secs_f64(),
    ))
}
