//! Puzzle words: each theme's name and what it means, for the theme picker and the dashboard,
//! and the errors a puzzle file or link can have, in the three languages.

use qi_play::puzzle::{PuzzleError, Theme};
use qi_rules::{GameKind, MoveError};

use crate::rules::illegal_reason;
use crate::text::{Lang, fill_all};

/// A theme's name and a one-line description, each in the three languages (English, 简体中文,
/// Tiếng Việt).
type Words = ([&'static str; 3], [&'static str; 3]);

fn words(theme: &Theme) -> Option<Words> {
    Some(match theme {
        Theme::Mate => (
            ["Checkmate", "将杀", "Chiếu hết"],
            ["Win the game with style.", "以杀棋取胜。", "Thắng ván bằng nước chiếu hết."],
        ),
        Theme::MateIn(_) => (
            ["Mate in {n}", "{n}步杀", "Chiếu hết sau {n} nước"],
            ["Deliver mate in {n} moves.", "{n}步之内将杀。", "Chiếu hết trong {n} nước."],
        ),
        Theme::OneMove => (
            ["One move", "一步", "Một nước"],
            ["A puzzle one move long.", "只需一步的题。", "Bài chỉ một nước."],
        ),
        Theme::Short => (
            ["Short puzzle", "短题", "Bài ngắn"],
            ["Two moves to win.", "两步取胜。", "Hai nước để thắng."],
        ),
        Theme::Long => (
            ["Long puzzle", "长题", "Bài dài"],
            ["Three moves to win.", "三步取胜。", "Ba nước để thắng."],
        ),
        Theme::VeryLong => (
            ["Very long puzzle", "超长题", "Bài rất dài"],
            ["Four moves or more to win.", "四步或更多取胜。", "Bốn nước trở lên để thắng."],
        ),
        Theme::Advantage => (
            ["Advantage", "优势", "Ưu thế"],
            [
                "Seize your chance to get a decisive advantage.",
                "抓住机会取得决定性优势。",
                "Nắm lấy cơ hội giành ưu thế quyết định.",
            ],
        ),
        Theme::Crushing => (
            ["Crushing", "压倒性优势", "Áp đảo"],
            [
                "Spot the blunder to get a crushing advantage.",
                "抓住对方的失误，取得压倒性优势。",
                "Phát hiện nước hớ để giành ưu thế áp đảo.",
            ],
        ),
        Theme::Equality => (
            ["Hold the draw", "守和", "Giữ hòa"],
            [
                "Come back from a lost position and secure a draw.",
                "从劣势中守住和棋。",
                "Gỡ lại thế thua và giữ được hòa.",
            ],
        ),
        Theme::Sacrifice => (
            ["Sacrifice", "弃子", "Thí quân"],
            [
                "Give up material now to gain more later.",
                "先弃子，后得利。",
                "Bỏ quân bây giờ để được nhiều hơn sau đó.",
            ],
        ),
        Theme::WinMaterial => (
            ["Win material", "得子", "Ăn quân"],
            ["Come out pieces ahead.", "最终多得子力。", "Kết thúc với nhiều quân hơn."],
        ),
        Theme::Fork => (
            ["Fork", "双击", "Đòn chĩa"],
            [
                "One piece attacks two at once.",
                "一子同时攻击两子。",
                "Một quân tấn công hai quân cùng lúc.",
            ],
        ),
        Theme::Pin => (
            ["Pin", "牵制", "Ghim"],
            [
                "A piece cannot move without exposing a more valuable one.",
                "一子不能动，否则暴露身后更重要的子。",
                "Một quân không thể đi vì sẽ để lộ quân giá trị hơn phía sau.",
            ],
        ),
        Theme::Skewer => (
            ["Skewer", "串击", "Xiên"],
            [
                "Attack a valuable piece and win the one behind it.",
                "攻击重要的子，吃掉它身后的子。",
                "Tấn công quân giá trị và ăn quân phía sau.",
            ],
        ),
        Theme::DiscoveredAttack => (
            ["Discovered attack", "闪击", "Tấn công mở"],
            [
                "Move a piece out of the way of another's attack.",
                "移开一子，让出另一子的攻击线。",
                "Dời một quân để mở đường tấn công cho quân khác.",
            ],
        ),
        Theme::Promotion => (
            ["Promotion", "升变", "Phong cấp"],
            ["Promote a pawn.", "兵升变。", "Phong cấp một con tốt."],
        ),
        Theme::BackRankMate => (
            ["Back rank mate", "底线杀", "Chiếu hết hàng cuối"],
            [
                "Mate the king on its home rank, trapped by its own pieces.",
                "在底线将杀被自己棋子困住的王。",
                "Chiếu hết vua ở hàng cuối, bị chính quân mình chặn.",
            ],
        ),
        Theme::SmotheredMate => (
            ["Smothered mate", "闷杀", "Chiếu hết ngạt"],
            [
                "A knight mates a king hemmed in by its own pieces.",
                "马将杀被自己棋子围住的王。",
                "Mã chiếu hết vua bị quân mình vây kín.",
            ],
        ),
        Theme::PawnEndgame => (
            ["Pawn endgame", "兵残局", "Tàn cuộc tốt"],
            ["Only kings and pawns.", "只剩王和兵。", "Chỉ còn vua và tốt."],
        ),
        Theme::RookEndgame => (
            ["Rook endgame", "车残局", "Tàn cuộc xe"],
            ["Only rooks and pawns.", "只剩车和兵。", "Chỉ còn xe và tốt."],
        ),
        Theme::BishopEndgame => (
            ["Bishop endgame", "象残局", "Tàn cuộc tượng"],
            ["Only bishops and pawns.", "只剩象和兵。", "Chỉ còn tượng và tốt."],
        ),
        Theme::KnightEndgame => (
            ["Knight endgame", "马残局", "Tàn cuộc mã"],
            ["Only knights and pawns.", "只剩马和兵。", "Chỉ còn mã và tốt."],
        ),
        Theme::QueenEndgame => (
            ["Queen endgame", "后残局", "Tàn cuộc hậu"],
            ["Only queens and pawns.", "只剩后和兵。", "Chỉ còn hậu và tốt."],
        ),
        Theme::QueenRookEndgame => (
            ["Queen and rook", "后车残局", "Hậu và xe"],
            ["Only queens, rooks and pawns.", "只剩后、车和兵。", "Chỉ còn hậu, xe và tốt."],
        ),
        Theme::Endgame => (
            ["Endgame", "残局", "Tàn cuộc"],
            ["A few pieces left.", "盘上子力已少。", "Trên bàn còn ít quân."],
        ),
        Theme::HorseBehindCannon => (
            ["Horse behind cannon", "马后炮", "Pháo sau mã"],
            [
                "The cannon checks over its own horse.",
                "炮借本方马为炮架将军。",
                "Pháo chiếu qua mã của mình làm ngòi.",
            ],
        ),
        Theme::IronBolt => (
            ["Iron bolt", "铁门栓", "Then sắt"],
            [
                "A central cannon bolts the palace while the chariot mates.",
                "中炮镇住九宫，车来将杀。",
                "Pháo giữa khóa cung, xe vào chiếu hết.",
            ],
        ),
        Theme::DoubleCannon => (
            ["Double cannon", "重炮", "Pháo chồng"],
            [
                "One cannon checks over the other.",
                "一炮借另一炮为架将军。",
                "Một pháo chiếu qua pháo kia.",
            ],
        ),
        Theme::SmotheredGeneral => (
            ["Smothered general", "闷宫", "Ngạt cung"],
            [
                "The cannon mates a general hemmed in by its own advisors.",
                "炮将杀被自己士堵住的将。",
                "Pháo chiếu hết tướng bị sĩ của mình chặn.",
            ],
        ),
        Theme::Vcf => (
            ["VCF", "冲四胜", "Thắng bằng tứ liên tục"],
            [
                "Win by making four after four.",
                "连续冲四取胜。",
                "Thắng bằng cách tạo bốn liên tục.",
            ],
        ),
        Theme::Vct => (
            ["VCT", "连续威胁胜", "Thắng bằng đe dọa liên tục"],
            [
                "Win by threat after threat: fours and open threes.",
                "连续冲四、活三取胜。",
                "Thắng bằng các đe dọa liên tục: bốn và ba mở.",
            ],
        ),
        Theme::FourThree => (
            ["Four-three", "四三", "Bốn-ba"],
            [
                "A four and an open three with one stone.",
                "一子同时形成冲四和活三。",
                "Một nước tạo cùng lúc bốn và ba mở.",
            ],
        ),
        Theme::ForbiddenTrap => (
            ["Forbidden point trap", "禁手陷阱", "Bẫy điểm cấm"],
            [
                "Black cannot block on a forbidden point.",
                "黑方不能在禁手点上防守。",
                "Đen không thể chặn ở điểm cấm.",
            ],
        ),
        Theme::Renju => (
            ["Renju", "连珠", "Renju"],
            ["Played under renju's rules.", "按连珠规则。", "Theo luật Renju."],
        ),
        Theme::StandardRule => (
            ["Exactly five", "恰好五连", "Đúng năm"],
            [
                "Played under the standard rule: exactly five wins.",
                "标准规则：恰好五连取胜。",
                "Luật tiêu chuẩn: đúng năm quân mới thắng.",
            ],
        ),
        Theme::Caro => (
            ["Caro", "Caro", "Caro"],
            [
                "Played under caro's rule: five with an open end.",
                "Caro规则：五连且不被两端封堵。",
                "Luật caro: năm quân không bị chặn hai đầu.",
            ],
        ),
        Theme::CaptureChain => (
            ["Capture chain", "连吃", "Ăn liên tiếp"],
            ["Take one piece after another.", "一子接一子地吃。", "Ăn hết quân này đến quân khác."],
        ),
        Theme::CannonJump => (
            ["Cannon jump", "炮打隔子", "Pháo nhảy"],
            ["The cannon takes over a screen.", "炮隔子吃子。", "Pháo ăn quân qua ngòi."],
        ),
        Theme::SoldierTakesGeneral => (
            ["Soldier takes general", "卒吃将", "Tốt ăn tướng"],
            [
                "The one piece that may take the general does.",
                "唯一能吃将的兵卒吃掉了将。",
                "Quân duy nhất ăn được tướng ra tay.",
            ],
        ),
        Theme::Other(_) => return None,
    })
}

fn index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Zh => 1,
        Lang::Vi => 2,
    }
}

fn number_of(theme: &Theme) -> String {
    match theme {
        Theme::MateIn(n) => n.to_string(),
        _ => String::new(),
    }
}

/// The theme's name in `lang` (a theme Qi does not know is shown by its token).
#[must_use]
pub fn theme_name(lang: Lang, theme: &Theme) -> String {
    match words(theme) {
        Some((name, _)) => name[index(lang)].replace("{n}", &number_of(theme)),
        None => theme.token().into_owned(),
    }
}

/// What the theme means, one line, in `lang` (empty for a theme Qi does not know).
#[must_use]
pub fn theme_description(lang: Lang, theme: &Theme) -> String {
    match words(theme) {
        Some((_, about)) => about[index(lang)].replace("{n}", &number_of(theme)),
        None => String::new(),
    }
}

/// Why a puzzle (a row of a file, a link) was refused, as a sentence in `lang`, for a puzzle of
/// `kind`. Text quoted from the puzzle is inserted as text, never as markup.
#[must_use]
pub fn puzzle_error(lang: Lang, kind: GameKind, error: &PuzzleError) -> String {
    let pick = |en: &'static str, zh: &'static str, vi: &'static str| [en, zh, vi][index(lang)];
    let (template, text, n, reason) = match error {
        PuzzleError::Columns { found } => (
            pick(
                "A puzzle row has 10 columns; this one has {n}.",
                "一行题目应有 10 列，这一行有 {n} 列。",
                "Một dòng bài phải có 10 cột; dòng này có {n}.",
            ),
            String::new(),
            *found,
            String::new(),
        ),
        PuzzleError::TooLong => (
            pick(
                "The puzzle is too long to read.",
                "题目太长，无法读取。",
                "Bài quá dài, không đọc được.",
            ),
            String::new(),
            0,
            String::new(),
        ),
        PuzzleError::BadId(id) => (
            pick(
                "“{text}” is not a puzzle's name (letters and digits).",
                "“{text}”不是题目编号（应为字母和数字）。",
                "“{text}” không phải tên bài (chữ và số).",
            ),
            id.clone(),
            0,
            String::new(),
        ),
        // The rules crate words position errors in English only: other languages leave the
        // detail out, as the link errors do.
        PuzzleError::Position(why) => (
            pick(
                "The puzzle's position cannot be read ({text}).",
                "无法读取题目的局面。",
                "Không đọc được thế cờ của bài.",
            ),
            why.clone(),
            0,
            String::new(),
        ),
        PuzzleError::Move { index, text, error } => (
            pick(
                "The puzzle's move {n} (“{text}”) cannot be played: {reason}",
                "题目的第 {n} 步（“{text}”）无法走出：{reason}",
                "Nước thứ {n} của bài (“{text}”) không đi được: {reason}",
            ),
            text.clone(),
            *index,
            match error {
                MoveError::Illegal(illegal) => {
                    illegal_reason(lang, kind, illegal.reason).to_owned()
                }
                MoveError::Parse(_) => {
                    pick("the move cannot be read.", "无法读懂这步棋。", "không đọc được nước đi.")
                        .to_owned()
                }
            },
        ),
        PuzzleError::LineShape { moves } => (
            pick(
                "A puzzle is the opponent's move and a solution ending on yours; this one has {n} moves.",
                "题目应由对方一步和以己方着法结束的解答组成；这道题有 {n} 步。",
                "Một bài gồm nước của đối phương và lời giải kết thúc bằng nước của bạn; bài này có {n} nước.",
            ),
            String::new(),
            *moves,
            String::new(),
        ),
        PuzzleError::OverEarly { index } => (
            pick(
                "The game is over after move {n}, before the puzzle's line ends.",
                "第 {n} 步后对局已结束，题目的着法却还没完。",
                "Ván cờ đã kết thúc sau nước {n}, trước khi lời giải kết thúc.",
            ),
            String::new(),
            *index,
            String::new(),
        ),
        PuzzleError::Number { column, text } => (
            pick(
                "{reason} “{text}” is not a number in its range.",
                "{reason}“{text}”不是有效范围内的数字。",
                "{reason} “{text}” không phải là số hợp lệ.",
            ),
            text.clone(),
            0,
            (*column).to_owned(),
        ),
        PuzzleError::Theme(bad) => (
            pick(
                "“{text}” is not a theme.",
                "“{text}”不是题目主题。",
                "“{text}” không phải chủ đề.",
            ),
            bad.0.clone(),
            0,
            String::new(),
        ),
        PuzzleError::Link(text) => (
            pick(
                "“{text}” is not a puzzle of a known game.",
                "“{text}”不是已知棋类的题目。",
                "“{text}” không phải bài của trò chơi nào đã biết.",
            ),
            text.clone(),
            0,
            String::new(),
        ),
        PuzzleError::Text { column } => (
            pick(
                "{reason} holds characters a puzzle row cannot.",
                "{reason}含有题目行不能包含的字符。",
                "{reason} chứa ký tự mà dòng bài không được có.",
            ),
            String::new(),
            0,
            (*column).to_owned(),
        ),
    };
    fill_all(template, &[("text", &text), ("n", &n.to_string()), ("reason", &reason)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_play::puzzle::theme::KNOWN;

    #[test]
    fn every_known_theme_has_a_name_and_a_description_in_each_language() {
        for theme in KNOWN.iter().cloned().chain((1..=5).map(Theme::MateIn)) {
            for lang in Lang::ALL {
                let name = theme_name(lang, &theme);
                assert!(!name.is_empty() && !name.contains('{'), "{theme:?} {lang:?}: {name}");
                assert!(!theme_description(lang, &theme).is_empty(), "{theme:?} {lang:?}");
            }
        }
        assert_eq!(theme_name(Lang::Zh, &Theme::MateIn(2)), "2步杀");
        assert_eq!(theme_name(Lang::Zh, &Theme::HorseBehindCannon), "马后炮");
        assert_eq!(theme_name(Lang::En, &Theme::Other("attraction".into())), "attraction");
    }

    #[test]
    fn a_bad_puzzle_is_explained_in_each_language() {
        use qi_play::puzzle::Puzzle;
        use qi_rules::any::Variant;
        let row = "p1,6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1,a5c4 a1b2,1500,80,0,0,,,";
        let error = Puzzle::read_row(Variant::Chess, row).unwrap_err();
        let said: Vec<String> =
            Lang::ALL.iter().map(|&lang| puzzle_error(lang, GameKind::Chess, &error)).collect();
        assert_eq!(
            said[0], "The puzzle's move 2 (“a1b2”) cannot be played: That piece does not move that way.",
            "{said:?}"
        );
        assert!(
            said[1].starts_with("题目的第 2 步（“a1b2”）无法走出：")
                && said[2].starts_with("Nước thứ 2")
        );
        for error in [
            Puzzle::read_row(Variant::Chess, "a,b").unwrap_err(),
            Puzzle::read_row(Variant::Chess, "p1,x,e2e4 e7e5,1,1,1,1,,,").unwrap_err(),
            Puzzle::read_row(
                Variant::Chess,
                "p1,6k1/5ppp/8/n7/8/8/5PPP/RR4K1 b - - 0 1,a5c4,1,1,1,1,,,",
            )
            .unwrap_err(),
        ] {
            for lang in Lang::ALL {
                let said = puzzle_error(lang, GameKind::Chess, &error);
                assert!(!said.is_empty() && !said.contains('{'), "{lang:?}: {said}");
            }
        }
    }
}

crate::text::texts! {
    /// A piece of the puzzle page's text (a table apart from [`crate::text::Text`], so that the
    /// main page does not carry it).
    enum PuzzleText, table PUZZLE_TABLE;
    /// The page's name, and the link to it beside the four games.
    Puzzles => ["Puzzles", "谜题", "Câu đố"],
    /// The task, with the side the player plays.
    FindTheMove => ["Your turn: find the best move for {side}.", "轮到你：为{side}找出最佳着法。", "Đến lượt bạn: tìm nước đi hay nhất cho {side}."],
    /// A right move, with more to find.
    BestMove => ["Best move! Keep going…", "最佳着法！继续…", "Nước hay nhất! Tiếp tục…"],
    /// The puzzle is solved.
    Solved => ["Puzzle solved!", "解题成功！", "Đã giải xong!"],
    /// A wrong move.
    Wrong => ["That's not the move.", "这步不对。", "Không phải nước này."],
    /// The engine's answer to the wrong move.
    RefutedBy => ["It is answered by {move}.", "对方可以{move}应对。", "Đối phương đáp lại bằng {move}."],
    /// The engine's answer to the wrong move, which mates or wins.
    RefutedByWin => ["It is answered by {move}, which wins.", "对方可以{move}应对，并且获胜。", "Đối phương đáp lại bằng {move} và thắng."],
    /// While the engine looks for the answer to a wrong move.
    LookingForAnswer => ["Looking for the answer to it…", "正在寻找对方的应着…", "Đang tìm nước đáp lại…"],
    /// Take the wrong move back and try again.
    TryAgain => ["Try again", "再试一次", "Thử lại"],
    /// Show the rest of the solution.
    ViewSolution => ["View the solution", "查看答案", "Xem lời giải"],
    /// A hint.
    Hint => ["Hint", "提示", "Gợi ý"],
    /// The first hint: the piece to move.
    HintPiece => ["Move the circled piece.", "走圈出的棋子。", "Đi quân được khoanh tròn."],
    /// The first hint in gomoku: where to play.
    HintPoint => ["Play on the circled point.", "落在圈出的位置。", "Đặt quân vào điểm được khoanh tròn."],
    /// The puzzle was failed (or the solution shown).
    Failed => ["Puzzle failed. The solution is on the board.", "解题失败。答案已在棋盘上。", "Chưa giải được. Lời giải ở trên bàn cờ."],
    /// The next puzzle.
    NextPuzzle => ["Next puzzle", "下一题", "Câu tiếp theo"],
    /// The player's puzzle rating.
    YourRating => ["Your puzzle rating", "你的谜题等级分", "Điểm giải đố của bạn"],
    /// The rating's change after a puzzle.
    RatingChange => ["Rating {change}", "等级分 {change}", "Điểm {change}"],
    /// The puzzle's own rating.
    PuzzleRated => ["Puzzle rated {rating}", "本题等级分 {rating}", "Độ khó {rating}"],
    /// The theme picker's label.
    Theme => ["Theme", "主题", "Chủ đề"],
    /// The theme picker's choice for any theme.
    AnyTheme => ["Any theme", "全部主题", "Mọi chủ đề"],
    /// Mode: puzzles near the player's rating, rated.
    Rated => ["Rated", "评级", "Tính điểm"],
    /// Mode: Streak.
    Streak => ["Streak", "连胜", "Chuỗi"],
    /// Mode: Storm.
    Storm => ["Storm", "冲刺", "Bão"],
    /// Mode: the daily puzzle.
    Daily => ["Daily puzzle", "每日谜题", "Câu đố hằng ngày"],
    /// Mode: the dashboard.
    Dashboard => ["Dashboard", "统计", "Thống kê"],
    /// Mode: puzzles made from the player's own game.
    FromYourGame => ["From your game", "来自你的对局", "Từ ván của bạn"],
    /// Streak's rule.
    StreakRule => ["Puzzles get harder one by one; one mistake ends the streak.", "题目一道比一道难；错一步就结束。", "Câu đố khó dần; sai một nước là hết chuỗi."],
    /// Streak's score.
    StreakScore => ["Streak: {n}", "连胜：{n}", "Chuỗi: {n}"],
    /// Streak ended by a mistake.
    StreakOver => ["Streak over: {n} solved (best {best}).", "连胜结束：解出 {n} 题（最佳 {best}）。", "Hết chuỗi: giải được {n} câu (tốt nhất {best})."],
    /// Start a new Streak or Storm.
    StartAgain => ["Start again", "重新开始", "Bắt đầu lại"],
    /// Storm's rule.
    StormRule => ["Three minutes: solve as many as you can. Each mistake costs 10 seconds.", "三分钟内尽量多解。每错一步扣 10 秒。", "Ba phút: giải càng nhiều càng tốt. Mỗi nước sai mất 10 giây."],
    /// Start a Storm.
    StartStorm => ["Start the Storm", "开始冲刺", "Bắt đầu"],
    /// Storm's clock and score.
    StormScore => ["Solved {n} · mistakes {m}", "解出 {n} · 失误 {m}", "Giải được {n} · sai {m}"],
    /// Storm is over.
    StormOver => ["Time's up: {n} solved (best {best}).", "时间到：解出 {n} 题（最佳 {best}）。", "Hết giờ: giải được {n} câu (tốt nhất {best})."],
    /// The daily puzzle's heading.
    DailyOf => ["Today's {game} puzzle", "今日{game}谜题", "Câu đố {game} hôm nay"],
    /// The dashboard's totals.
    Totals => ["{solved} solved, {failed} failed", "解出 {solved} 题，失败 {failed} 题", "Giải được {solved}, chưa được {failed}"],
    /// The dashboard's column: solved.
    SolvedColumn => ["Solved", "解出", "Giải được"],
    /// The dashboard's column: failed.
    FailedColumn => ["Failed", "失败", "Chưa được"],
    /// The dashboard before any puzzle.
    NothingTried => ["No puzzle tried yet.", "还没有做过题。", "Chưa làm câu nào."],
    /// Best Streak and Storm.
    Bests => ["Best Streak {streak} · best Storm {storm}", "最佳连胜 {streak} · 最佳冲刺 {storm}", "Chuỗi tốt nhất {streak} · Bão tốt nhất {storm}"],
    /// While the database loads.
    Loading => ["Loading puzzles…", "正在载入谜题…", "Đang tải câu đố…"],
    /// The database did not load.
    LoadFailed => ["The puzzles could not be loaded ({why}).", "谜题无法载入（{why}）。", "Không tải được câu đố ({why})."],
    /// A game with no puzzles yet.
    NoPuzzles => ["There are no {game} puzzles yet.", "还没有{game}谜题。", "Chưa có câu đố {game}."],
    /// No puzzle left of the picked theme.
    NoneLeft => ["No puzzle of this theme is left to try.", "这个主题已没有新题。", "Không còn câu nào của chủ đề này."],
    /// A named puzzle that is not in the database.
    NotFound => ["There is no puzzle “{id}” among the {game} puzzles.", "{game}谜题中没有“{id}”。", "Không có câu đố “{id}” trong các câu đố {game}."],
    /// A puzzle link that could not be read.
    BadLink => ["This puzzle link cannot be opened: {why}", "无法打开这个谜题链接：{why}", "Không mở được liên kết câu đố này: {why}"],
    /// Share the puzzle's link.
    SharePuzzle => ["Link to this puzzle", "本题链接", "Liên kết câu đố này"],
    /// Embed: this puzzle.
    EmbedThis => ["Embed this puzzle", "嵌入本题", "Nhúng câu đố này"],
    /// Embed: the day's puzzle (changes every day).
    EmbedDaily => ["Embed today's puzzle (a new one every day)", "嵌入每日谜题（每天更新）", "Nhúng câu đố hằng ngày (mỗi ngày một câu)"],
    /// Copy a link or embed code.
    Copy => ["Copy", "复制", "Sao chép"],
    /// Copied.
    Copied => ["Copied", "已复制", "Đã sao chép"],
    /// Close a dialog.
    Close => ["Close", "关闭", "Đóng"],
    /// Open the puzzle on Qi's page from an embed.
    OpenOnQi => ["More puzzles on Qi", "在 Qi 上做更多题", "Thêm câu đố trên Qi"],
    /// Make puzzles from the game just played.
    FromThisGame => ["Puzzles from this game", "用这局棋出题", "Câu đố từ ván này"],
    /// While the worker looks for puzzles in a game.
    Mining => ["Looking for the wins you missed in this game… (this takes up to a minute)", "正在寻找这局中你错过的胜机…（最多约一分钟）", "Đang tìm những cơ hội thắng bạn bỏ lỡ trong ván… (mất tối đa một phút)"],
    /// No puzzle in the game.
    NoneInGame => ["No puzzle in this game: you missed no win that one move alone gives.", "这局棋中没有题：你没有错过只有一着才能取胜的机会。", "Ván này không có câu đố: bạn không bỏ lỡ cơ hội thắng nào chỉ có một nước."],
    /// How many puzzles a game gave.
    FoundInGame => ["{n} puzzles from your game: positions where you could have won.", "从你的对局中找到 {n} 道题：你本可以取胜的局面。", "{n} câu đố từ ván của bạn: những thế bạn đã có thể thắng."],
    /// Which of them.
    NumberOf => ["Puzzle {i} of {n}", "第 {i} 题，共 {n} 题", "Câu {i} / {n}"],
    /// A game link the page could not read.
    NoGame => ["No game to make puzzles from: {why}", "没有可以出题的对局：{why}", "Không có ván để tạo câu đố: {why}"],
    /// Back to playing.
    PlayAGame => ["Play a game", "下棋", "Chơi cờ"],
    /// The puzzle's id and game.
    PuzzleName => ["Puzzle {id}", "谜题 {id}", "Câu đố {id}"],
}

/// A piece of the puzzle page's text in `lang`.
#[must_use]
pub fn pt(lang: Lang, text: PuzzleText) -> &'static str {
    crate::text::pick(lang, PUZZLE_TABLE[text as usize])
}
