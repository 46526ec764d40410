//! The rules crate's reasons, in the player's language: why a move is illegal and why a game ended.
//!
//! The rules crate describes each reason in English for the command line; the app shows them in
//! English, Simplified Chinese or Vietnamese, in each game's own terms (king or general, pawn or
//! soldier, square or point).

use crate::text::Lang;
use qi_play::link::LinkError;
use qi_rules::{EndReason, GameKind, IllegalReason, MoveError};

/// One text in each language, chosen by `lang`.
const fn pick(lang: Lang, en: &'static str, zh: &'static str, vi: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
        Lang::Vi => vi,
    }
}

/// Why a move is illegal, as a short sentence for the status panel, in `lang`.
///
/// `kind` lets the wording use the game's own piece names (king vs general, square vs point).
#[must_use]
pub fn illegal_reason(lang: Lang, kind: GameKind, reason: IllegalReason) -> &'static str {
    use IllegalReason as R;
    let chess = kind == GameKind::Chess;
    let (en, zh, vi) = match reason {
        // --- any game ---
        R::GameOver => ("The game is already over.", "对局已经结束。", "Ván cờ đã kết thúc."),
        R::OffBoard if chess => {
            ("That square is off the board.", "超出棋盘范围。", "Ô này nằm ngoài bàn cờ.")
        }
        R::OffBoard => {
            ("That point is off the board.", "超出棋盘范围。", "Điểm này nằm ngoài bàn cờ.")
        }
        R::NoPieceThere if chess => (
            "There is no piece on that square.",
            "起点格上没有棋子。",
            "Không có quân nào ở ô xuất phát.",
        ),
        R::NoPieceThere => (
            "There is no piece on that point.",
            "起点上没有棋子。",
            "Không có quân nào ở điểm xuất phát.",
        ),
        R::NotYourPiece => (
            "That piece belongs to your opponent.",
            "那是对方的棋子。",
            "Đó là quân của đối phương.",
        ),
        R::OwnPieceOnTarget => (
            "You cannot capture your own piece.",
            "不能吃自己的棋子。",
            "Không thể ăn quân của mình.",
        ),
        R::WrongMovement => (
            "That piece does not move that way.",
            "这个棋子不能这样走。",
            "Quân này không đi được như vậy.",
        ),
        R::PathBlocked => {
            ("Another piece blocks the way.", "有棋子挡住了去路。", "Có quân khác chắn đường.")
        }
        R::LeavesKingInCheck if chess => (
            "That would leave your king in check.",
            "走这步后，己方的王会被将军。",
            "Nước này để Vua của bạn bị chiếu.",
        ),
        R::LeavesKingInCheck => (
            "That would leave your general in check.",
            "不能送将：走这步后己方将帅会被将军。",
            "Nước này để Tướng của bạn bị chiếu.",
        ),
        R::WrongGame { .. } => (
            "That move belongs to another game.",
            "这步棋属于另一种棋。",
            "Nước này thuộc về trò chơi khác.",
        ),
        // --- chess ---
        R::PromotionRequired => (
            "Choose the piece your pawn promotes to.",
            "请选择兵升变成的棋子。",
            "Hãy chọn quân để phong cấp cho Tốt.",
        ),
        R::BadPromotion => {
            ("That promotion is not allowed.", "不能这样升变。", "Không được phong cấp như vậy.")
        }
        R::CastlingNotAllowed => {
            ("Castling is not allowed here.", "现在不能王车易位。", "Lúc này không thể nhập thành.")
        }
        R::CastleOutOfCheck => (
            "You cannot castle while in check.",
            "被将军时不能王车易位。",
            "Không được nhập thành khi đang bị chiếu.",
        ),
        R::CastlingNotation => (
            "Castle by moving the king two squares (onto the rook in Chess960).",
            "王车易位请把王横移两格（Chess960 中把王走到车上）。",
            "Nhập thành bằng cách đi Vua hai ô (Chess960: đi Vua vào ô Xe).",
        ),
        R::Ambiguous => (
            "Ambiguous move: more than one piece can make it.",
            "着法有歧义：不止一个棋子能这样走。",
            "Nước đi không rõ ràng: có hơn một quân đi được như vậy.",
        ),
        // --- xiangqi ---
        R::LeavesPalace => (
            "The general and advisors must stay in the palace.",
            "将帅和士不能走出九宫。",
            "Tướng và Sĩ không được ra khỏi cung.",
        ),
        R::HorseLegBlocked => (
            "The horse's leg is blocked.",
            "蹩马腿，马不能这样走。",
            "Mã bị cản chân, không đi được.",
        ),
        R::ElephantEyeBlocked => (
            "The elephant's eye is blocked.",
            "塞象眼，象不能这样走。",
            "Tượng bị chặn mắt, không đi được.",
        ),
        R::ElephantCannotCrossRiver => {
            ("The elephant cannot cross the river.", "象不能过河。", "Tượng không được qua sông.")
        }
        R::GeneralsFacing => (
            "The two generals would face each other.",
            "将帅不能对面（白脸将）。",
            "Hai Tướng không được đối mặt nhau.",
        ),
        R::SoldierCannotRetreat => {
            ("A soldier can never move backwards.", "兵卒不能后退。", "Tốt không được đi lùi.")
        }
        R::SoldierSidewaysBeforeRiver => (
            "A soldier moves sideways only after crossing the river.",
            "兵卒过河后才能横走。",
            "Tốt chỉ được đi ngang sau khi qua sông.",
        ),
        R::CannonNeedsOneScreen => (
            "A cannon captures by jumping exactly one piece.",
            "炮吃子必须隔一个炮架。",
            "Pháo phải có đúng một ngòi mới ăn được quân.",
        ),
        // --- banqi ---
        R::PieceFaceDown => (
            "That piece is face down: flip it first.",
            "这是暗子，请先翻开。",
            "Quân này đang úp, hãy lật lên trước.",
        ),
        R::AlreadyFaceUp => {
            ("That piece is already face up.", "这个棋子已经翻开了。", "Quân này đã được lật rồi.")
        }
        R::CannotCaptureHigherRank => (
            "A piece cannot capture a higher-ranked piece.",
            "不能吃比自己大的棋子。",
            "Không được ăn quân có cấp cao hơn.",
        ),
        R::GeneralCannotCaptureSoldier => (
            "The general cannot capture a soldier.",
            "将帅不能吃兵卒。",
            "Tướng không được ăn Tốt.",
        ),
        R::CannotCaptureFaceDown => (
            "Face-down pieces cannot be captured.",
            "按当前规则，不能吃暗子。",
            "Theo luật này, không được ăn quân đang úp.",
        ),
        R::FlipResultUnknown => (
            "The face-down piece is unknown: give the flip's result.",
            "暗子未知：请给出翻棋的结果。",
            "Chưa biết quân úp này: hãy cho biết kết quả lật quân.",
        ),
        R::FlipResultImpossible => (
            "No such piece is still face down.",
            "暗子中已没有这种棋子。",
            "Không còn quân như vậy trong số quân úp.",
        ),
        R::ChainCaptureOnly => (
            "In a chain capture, the same piece must capture again or stop.",
            "连吃时只能由同一个棋子继续吃子，或者停止。",
            "Khi ăn liên tiếp, chỉ quân vừa ăn được ăn tiếp hoặc dừng lại.",
        ),
        R::NoChainToStop => (
            "There is no chain capture to stop.",
            "现在没有可以停止的连吃。",
            "Không có lượt ăn liên tiếp nào để dừng.",
        ),
        // --- gomoku ---
        R::PointOccupied => {
            ("That point is already taken.", "这里已经有棋子了。", "Ô này đã có quân rồi.")
        }
        R::DoubleThree => (
            "Renju: Black may not make a double three.",
            "连珠禁手：黑棋不能走三三。",
            "Luật Renju: quân Đen bị cấm hai-ba.",
        ),
        R::DoubleFour => (
            "Renju: Black may not make a double four.",
            "连珠禁手：黑棋不能走四四。",
            "Luật Renju: quân Đen bị cấm bốn-bốn.",
        ),
        R::Overline => (
            "Renju: Black may not make six or more in a row.",
            "连珠禁手：黑棋不能走长连（六子或以上）。",
            "Luật Renju: quân Đen bị cấm sáu quân liên tiếp trở lên.",
        ),
        R::ChoiceDue => (
            "The opening rule asks for a colour now: take black or white.",
            "按开局规则，现在要选择执黑或执白，不能落子。",
            "Theo luật khai cuộc, bây giờ phải chọn quân Đen hoặc Trắng, chưa được đặt quân.",
        ),
        R::NoChoiceDue => (
            "No colour choice is due now: put a stone.",
            "现在不是选择颜色的时候，请落子。",
            "Chưa đến lúc chọn màu: hãy đặt quân.",
        ),
        R::OutsideOpeningArea => (
            "Opening stones go on the centre, then within its 3×3 and 5×5 squares.",
            "开局的子依次落在天元、天元周围3×3和5×5的范围内。",
            "Các quân khai cuộc đặt ở tâm bàn, rồi trong ô vuông 3×3 và 5×5 quanh tâm.",
        ),
        R::OfferCountDue => (
            "White declares now how many fifth stones Black offers (1 to 8).",
            "现在由白方声明黑方要打点的数目（1到8）。",
            "Bây giờ bên Trắng phải nêu số nước thứ năm bên Đen đưa ra (1 đến 8).",
        ),
        R::OffersDue => (
            "Black offers the declared fifth stones now.",
            "现在由黑方摆出声明数目的第五手打点。",
            "Bây giờ bên Đen đưa ra các nước thứ năm đã nêu.",
        ),
        R::ChooseOffer => (
            "Choose one of the offered fifth stones.",
            "请在黑方的打点中选择一个。",
            "Hãy chọn một trong các nước thứ năm được đưa ra.",
        ),
        R::NoOfferDue => (
            "No fifth-stone offer is due now.",
            "现在不是声明或打点的时候。",
            "Chưa đến lúc đưa ra nước thứ năm.",
        ),
        R::OfferCountOutOfRange => (
            "Between 1 and 8 fifth stones may be offered.",
            "打点数目只能是1到8。",
            "Chỉ được đưa ra từ 1 đến 8 nước thứ năm.",
        ),
        R::OfferMirrored => (
            "That point, or its mirror image, is already offered.",
            "这个点或与它对称的点已经打过了。",
            "Điểm này, hoặc điểm đối xứng với nó, đã được đưa ra.",
        ),
        // `IllegalReason` is `#[non_exhaustive]`: a reason added later reads generically until
        // it is translated here.
        _ => ("That move is not allowed.", "不能这样走。", "Nước đi này không hợp lệ."),
    };
    pick(lang, en, zh, vi)
}

/// Why the game ended, as a short phrase used after "X wins by ..." / "Draw by ...", in the
/// terms of the game `kind`: in xiangqi stalemate is a loss (困毙, not
/// chess's 逼和) and the no-progress limit counts captures only (自然限着).
#[must_use]
pub fn end_reason_for(lang: Lang, kind: GameKind, reason: EndReason) -> &'static str {
    use EndReason as E;
    let xiangqi = kind == GameKind::Xiangqi;
    let (en, zh, vi) = match reason {
        E::Checkmate => ("checkmate", "将死", "chiếu hết"),
        E::Stalemate if xiangqi => ("stalemate", "困毙", "hết nước đi"),
        E::Stalemate => ("stalemate", "逼和", "hết nước đi (pat)"),
        E::NoLegalMoves => ("no legal moves", "无棋可走", "không còn nước đi hợp lệ"),
        E::NoPieces => ("no pieces left", "棋子被吃光", "hết quân"),
        E::Repetition => ("threefold repetition", "三次重复局面", "lặp lại ba lần"),
        E::PerpetualCheck => ("perpetual check", "长将", "chiếu dai"),
        E::FiftyMoves => ("the fifty-move rule", "五十回合规则", "luật 50 nước"),
        E::InsufficientMaterial => ("insufficient material", "子力不足", "không đủ quân chiếu hết"),
        E::NoProgress if xiangqi => {
            ("the move limit without a capture", "自然限着", "quá lâu không ăn quân")
        }
        E::NoProgress => (
            "no capture or flip for too long",
            "长时间无吃子或翻棋",
            "quá lâu không ăn hay lật quân",
        ),
        E::FiveInARow => ("five in a row", "五子连珠", "năm quân liên tiếp"),
        E::BoardFull => ("a full board", "棋盘已满", "bàn cờ đã kín"),
    };
    pick(lang, en, zh, vi)
}

/// What was wrong with a link, as a sentence for the status panel, in `lang`. Text quoted from
/// the link is inserted as text, never as markup.
#[must_use]
pub fn link_error(lang: Lang, kind: GameKind, error: &LinkError) -> String {
    let template = match error {
        LinkError::TooLong => pick(
            lang,
            "The link was too long; only its first part was read.",
            "链接太长，只读取了开头部分。",
            "Liên kết quá dài; chỉ đọc được phần đầu.",
        ),
        LinkError::UnknownGame(_) => pick(
            lang,
            "The link names an unknown game “{text}”; a new game opened instead.",
            "无法识别链接中的棋类“{text}”，已改为新对局。",
            "Liên kết ghi một trò chơi không rõ “{text}”; đã mở ván mới.",
        ),
        LinkError::BadRules(_) => pick(
            lang,
            "The link's rule options “{text}” could not be read; the usual rules apply.",
            "无法读取链接中的规则选项“{text}”，已使用默认规则。",
            "Không đọc được tùy chọn luật “{text}” trong liên kết; dùng luật mặc định.",
        ),
        LinkError::BadPosition(_) => pick(
            lang,
            "The link's position could not be read ({text}); the game starts from the usual position.",
            "无法读取链接中的局面，已从初始局面开始。",
            "Không đọc được thế cờ trong liên kết; ván cờ bắt đầu từ thế ban đầu.",
        ),
        LinkError::BadSeed(_) => pick(
            lang,
            "The deal number “{text}” in the link is not a number; deal 0 is used.",
            "链接中的发牌编号“{text}”不是数字，已使用 0 号。",
            "Số chia quân “{text}” trong liên kết không phải là số; dùng số 0.",
        ),
        LinkError::BadMove { .. } => pick(
            lang,
            "The link's game stops before move {n} (“{text}”): {reason}",
            "链接中的对局停在第 {n} 步之前（“{text}”）：{reason}",
            "Ván cờ trong liên kết dừng trước nước {n} (“{text}”): {reason}",
        ),
        LinkError::TooManyMoves => pick(
            lang,
            "The link has too many moves; only the first {n} were read.",
            "链接中的着法太多，只读取了前 {n} 步。",
            "Liên kết có quá nhiều nước; chỉ đọc {n} nước đầu.",
        ),
        LinkError::BadCompact => pick(
            lang,
            "The game in the link is damaged; a new game opened instead.",
            "链接中的对局数据已损坏，已改为新对局。",
            "Dữ liệu ván cờ trong liên kết bị hỏng; đã mở ván mới.",
        ),
        LinkError::BadOption { .. } => pick(
            lang,
            "“{text}” in the link means nothing and was ignored.",
            "链接中的“{text}”无效，已忽略。",
            "“{text}” trong liên kết không hợp lệ và đã bị bỏ qua.",
        ),
    };
    let (text, n, reason) = match error {
        // The rules crate words position errors in English only: other languages leave the
        // detail out.
        LinkError::BadPosition(_) if lang != Lang::En => (String::new(), 0, String::new()),
        LinkError::UnknownGame(text)
        | LinkError::BadRules(text)
        | LinkError::BadPosition(text)
        | LinkError::BadSeed(text) => (text.clone(), 0, String::new()),
        LinkError::BadMove { ply, text, error } => {
            let reason = match error {
                MoveError::Illegal(illegal) => illegal_reason(lang, kind, illegal.reason),
                MoveError::Parse(_) => pick(
                    lang,
                    "the move cannot be read.",
                    "无法读懂这步棋。",
                    "không đọc được nước đi.",
                ),
            };
            (text.clone(), *ply, reason.to_owned())
        }
        LinkError::BadOption { name, value } => (format!("{name}={value}"), 0, String::new()),
        LinkError::TooManyMoves => (String::new(), qi_play::link::MAX_MOVES, String::new()),
        LinkError::TooLong | LinkError::BadCompact => (String::new(), 0, String::new()),
    };
    crate::text::fill_all(template, &[("text", &text), ("n", &n.to_string()), ("reason", &reason)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant core.rs lists; a new one must be added here (and translated above).
    const ILLEGAL: [IllegalReason; 45] = {
        use IllegalReason as R;
        [
            R::GameOver,
            R::OffBoard,
            R::NoPieceThere,
            R::NotYourPiece,
            R::OwnPieceOnTarget,
            R::WrongMovement,
            R::PathBlocked,
            R::LeavesKingInCheck,
            R::WrongGame {
                move_kind: qi_rules::GameKind::Chess,
                game_kind: qi_rules::GameKind::Xiangqi,
            },
            R::PromotionRequired,
            R::BadPromotion,
            R::CastlingNotAllowed,
            R::CastleOutOfCheck,
            R::CastlingNotation,
            R::Ambiguous,
            R::LeavesPalace,
            R::HorseLegBlocked,
            R::ElephantEyeBlocked,
            R::ElephantCannotCrossRiver,
            R::GeneralsFacing,
            R::SoldierCannotRetreat,
            R::SoldierSidewaysBeforeRiver,
            R::CannonNeedsOneScreen,
            R::PieceFaceDown,
            R::AlreadyFaceUp,
            R::CannotCaptureHigherRank,
            R::GeneralCannotCaptureSoldier,
            R::CannotCaptureFaceDown,
            R::FlipResultUnknown,
            R::FlipResultImpossible,
            R::ChainCaptureOnly,
            R::NoChainToStop,
            R::PointOccupied,
            R::DoubleThree,
            R::DoubleFour,
            R::Overline,
            R::ChoiceDue,
            R::NoChoiceDue,
            R::OutsideOpeningArea,
            R::OfferCountDue,
            R::OffersDue,
            R::ChooseOffer,
            R::NoOfferDue,
            R::OfferCountOutOfRange,
            R::OfferMirrored,
        ]
    };

    const END: [EndReason; 11] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::NoLegalMoves,
        EndReason::NoPieces,
        EndReason::Repetition,
        EndReason::PerpetualCheck,
        EndReason::FiftyMoves,
        EndReason::InsufficientMaterial,
        EndReason::NoProgress,
        EndReason::FiveInARow,
        EndReason::BoardFull,
    ];

    const GENERIC_EN: &str = "That move is not allowed.";

    fn has_cjk(text: &str) -> bool {
        text.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c))
    }

    /// The checks every translated text must pass, given its English original.
    fn check(what: &str, en: &str, zh: &str, vi: &str) {
        for (lang, text) in [("en", en), ("zh", zh), ("vi", vi)] {
            assert!(!text.trim().is_empty(), "{what}: empty {lang} text");
            assert!(!text.contains('<'), "{what}: {lang} text contains '<': {text}");
        }
        assert!(has_cjk(zh), "{what}: Chinese text without CJK characters: {zh}");
        assert_ne!(vi, en, "{what}: Vietnamese text is the English one");
        assert!(en.chars().count() <= 72, "{what}: English text too long: {en}");
    }

    #[test]
    fn every_illegal_reason_is_translated() {
        for kind in GameKind::ALL {
            for reason in ILLEGAL {
                let [en, zh, vi] =
                    [Lang::En, Lang::Zh, Lang::Vi].map(|lang| illegal_reason(lang, kind, reason));
                check(&format!("{kind} {reason:?}"), en, zh, vi);
                // Each listed variant has its own text, not the fallback for unknown ones.
                assert_ne!(en, GENERIC_EN, "{kind} {reason:?} falls through to the generic text");
            }
        }
    }

    #[test]
    fn every_end_reason_is_translated() {
        for reason in END {
            let [en, zh, vi] = [Lang::En, Lang::Zh, Lang::Vi]
                .map(|lang| end_reason_for(lang, GameKind::Chess, reason));
            check(&format!("{reason:?}"), en, zh, vi);
            for kind in GameKind::ALL {
                let [en, zh, vi] =
                    [Lang::En, Lang::Zh, Lang::Vi].map(|lang| end_reason_for(lang, kind, reason));
                check(&format!("{kind} {reason:?}"), en, zh, vi);
            }
        }
    }

    #[test]
    fn wording_follows_the_game() {
        let check_in = IllegalReason::LeavesKingInCheck;
        assert!(illegal_reason(Lang::En, GameKind::Chess, check_in).contains("king"));
        assert!(illegal_reason(Lang::En, GameKind::Xiangqi, check_in).contains("general"));
        assert!(illegal_reason(Lang::Zh, GameKind::Chess, check_in).contains('王'));
        assert!(illegal_reason(Lang::Zh, GameKind::Xiangqi, check_in).contains("将帅"));
        assert!(illegal_reason(Lang::Vi, GameKind::Chess, check_in).contains("Vua"));
        assert!(illegal_reason(Lang::Vi, GameKind::Xiangqi, check_in).contains("Tướng"));
        assert_eq!(end_reason_for(Lang::Zh, GameKind::Chess, EndReason::Stalemate), "逼和");
        assert_eq!(end_reason_for(Lang::Zh, GameKind::Xiangqi, EndReason::Stalemate), "困毙");
    }
}
