//! Every string the app shows, from one table, in English, 简体中文 and Tiếng Việt. Reasons for
//! illegal moves and game ends come from the rules core as values and are worded in
//! [`crate::rules`].

use qi_rules::{GameKind, Side};

/// A language of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
    /// Vietnamese.
    Vi,
}

impl Lang {
    /// Every language, in the order the picker lists them.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Zh, Lang::Vi];

    /// The BCP 47 tag, for `lang` attributes and storage.
    #[must_use]
    pub const fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
            Lang::Vi => "vi",
        }
    }

    /// The language's own name, for the picker.
    #[must_use]
    pub const fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
            Lang::Vi => "Tiếng Việt",
        }
    }

    /// The language a link asks for with `lang=` (`en`, `zh`, `zh-CN`, `vi`, as the pages'
    /// loading script reads it), or `None` for anything else.
    #[must_use]
    pub fn from_link(value: &str) -> Option<Lang> {
        match value.trim() {
            "en" => Some(Lang::En),
            "zh" | "zh-CN" => Some(Lang::Zh),
            "vi" => Some(Lang::Vi),
            _ => None,
        }
    }

    /// The language for a browser language tag (`zh-TW`, `vi-VN`, `en-GB`...); English when none fits.
    #[must_use]
    pub fn from_tag(tag: &str) -> Lang {
        let tag = tag.to_ascii_lowercase();
        if tag.starts_with("zh") {
            Lang::Zh
        } else if tag.starts_with("vi") {
            Lang::Vi
        } else {
            Lang::En
        }
    }
}

/// Declares [`Text`] (or another enum of words) and its table together: each piece of text with its doc and its three
/// languages (English, 简体中文, Tiếng Việt, in [`Lang::ALL`]'s order), so the table is data, one
/// row per piece, and a piece without its three texts does not compile.
/// Another page's words (the puzzles') are a table of their own made the same way, so the
/// main page does not carry them.
macro_rules! texts {
    ($(#[doc = $edoc:literal])* enum $enum:ident, table $table:ident;
     $($(#[doc = $doc:literal])* $name:ident => [$en:literal, $zh:literal, $vi:literal $(,)?],)*) => {
        $(#[doc = $edoc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $enum {
            $($(#[doc = $doc])* $name,)*
        }

        /// Each piece's texts, in the order of the enum's variants.
        const $table: &[[&str; 3]] = &[$([$en, $zh, $vi],)*];
    };
}
pub(crate) use texts;

texts! {
    /// A piece of interface text.
    enum Text, table TABLE;
    /// The app's name and tagline.
    Title => ["Qi — four board games", "棋 — 四种棋", "Qi — bốn trò chơi cờ"],
    /// Heading of the game picker.
    Game => ["Game", "棋类", "Trò chơi"],
    /// The link to the puzzle page, beside the four games.
    Puzzles => ["Puzzles", "谜题", "Câu đố"],
    /// The embed dialog's snippet of the day's puzzle.
    EmbedDailyPuzzle => ["Or today's puzzle of this game, solved in the frame (a new one every day)", "或嵌入本棋类的每日谜题，可在框内解题（每天更新）", "Hoặc câu đố hôm nay của trò này, giải ngay trong khung (mỗi ngày một câu)"],
    /// Make puzzles from the game just played (a link to the puzzle page).
    PuzzlesFromGame => ["Puzzles from this game", "用这局棋出题", "Câu đố từ ván này"],
    /// Start a new game.
    NewGame => ["New game", "新对局", "Ván mới"],
    /// Starts the game chosen in the new-game dialog.
    StartGame => ["Play", "开始", "Bắt đầu"],
    /// The gomoku option: a first tap shows the stone, a second places it.
    ConfirmStones => ["Tap twice to place a stone", "点两下落子", "Chạm hai lần để đặt quân"],
    /// The board colour option.
    BoardColours => ["Board colours", "棋盘颜色", "Màu bàn cờ"],
    /// Board colours: wood.
    BoardsWood => ["Wood", "木纹", "Gỗ"],
    /// Board colours: slate.
    BoardsSlate => ["Slate", "青石", "Đá xám"],
    /// The board size option (wide screens).
    BoardSize => ["Board zoom", "棋盘缩放", "Thu phóng bàn cờ"],
    EngineThreads => ["Engine threads", "引擎线程数", "Số luồng của máy"],
    ThreadsAutomatic => ["Automatic ({n})", "自动（{n}）", "Tự động ({n})"],
    /// Take back the last move.
    Undo => ["Undo", "悔棋", "Đi lại"],
    /// Turn the board around.
    FlipBoard => ["Flip board", "翻转棋盘", "Xoay bàn cờ"],
    /// Heading of the rule options.
    Rules => ["Rules", "规则", "Luật chơi"],
    /// Language picker label.
    Language => ["Language", "语言", "Ngôn ngữ"],
    /// Theme picker label.
    Theme => ["Theme", "主题", "Giao diện"],
    /// Light theme.
    Light => ["Light", "浅色", "Sáng"],
    /// Dark theme.
    Dark => ["Dark", "深色", "Tối"],
    /// Clock picker label.
    Clock => ["Clock", "棋钟", "Đồng hồ"],
    /// No clock.
    NoClock => ["No clock", "不计时", "Không tính giờ"],
    /// Heading of the move list.
    Moves => ["Moves", "着法", "Nước đi"],
    /// The start of the game in the move list.
    StartPosition => ["Start", "开局", "Bắt đầu"],
    /// Return from a past position to the game.
    BackToGame => ["Back to the game", "回到当前局面", "Về ván đang chơi"],
    /// Make the variation shown the main continuation where it branches off.
    PromoteVariation => ["Promote variation", "提升变着", "Nâng biến"],
    /// Make the variation shown the main line.
    MakeMainLine => ["Make main line", "设为主线", "Đặt làm nhánh chính"],
    /// Delete the move shown and everything after it.
    DeleteFromHere => ["Delete from here", "从此处删除", "Xóa từ đây"],
    /// Said while a variation is shown: moves played make or follow variations.
    InVariation => [
        "Variation: moves played here make a side line; the game stays as it is.",
        "变着：在此走棋会形成分支，对局本身不变。",
        "Biến: nước đi ở đây tạo nhánh phụ; ván cờ vẫn giữ nguyên.",
    ],
    /// The move marks' group.
    Marks => ["Marks", "标注", "Ký hiệu"],
    /// The analysis panel's name, and the button that turns it on.
    Analysis => ["Analysis", "分析", "Phân tích"],
    /// The analysis button's label.
    Analyse => ["Analyse", "分析", "Phân tích"],
    /// Said when analysis waits for the game (the computer's turn in a game going on).
    AnalysisPaused => [
        "Analysis waits while the computer plays: step back, or finish the game.",
        "电脑对局进行中，分析暂停：可回看棋局，或在终局后分析。",
        "Phân tích tạm dừng khi máy đang chơi: hãy xem lại nước cũ, hoặc chờ hết ván.",
    ],
    /// `depth {n}`.
    Depth => ["depth {n}", "深度 {n}", "độ sâu {n}"],
    /// The game review's button and panel name.
    Review => ["Review", "复盘", "Xem lại ván"],
    /// The option that chooses how a xiangqi board is labelled.
    BoardLabels => ["Board labels", "棋盘标注", "Nhãn bàn cờ"],
    /// Traditional file numbers.
    FileNumbers => ["File numbers (1–9 each side)", "路数（一至九，1至9）", "Số cột (1–9 mỗi bên)"],
    /// Letters and rank numbers (ICCS).
    FileLetters => ["Letters (a–i, 1–10)", "字母坐标（a–i，1–10）", "Chữ cái (a–i, 1–10)"],
    /// `Reviewing… {n}%`.
    Reviewing => ["Reviewing… {n}%", "复盘中… {n}%", "Đang xem lại… {n}%"],
    /// The accuracy row of the review's summary.
    Accuracy => ["Accuracy", "准确率", "Độ chính xác"],
    /// The review's judgements, best first.
    JudgedBest => ["Best", "最佳", "Tốt nhất"],
    /// A good move (not the engine's choice).
    JudgedGood => ["Good", "好棋", "Tốt"],
    /// An inaccuracy.
    JudgedInaccuracy => ["Inaccuracy", "欠佳", "Thiếu chính xác"],
    /// A mistake.
    JudgedMistake => ["Mistake", "错着", "Sai lầm"],
    /// A blunder.
    JudgedBlunder => ["Blunder", "败着", "Sai lầm nghiêm trọng"],
    /// The evaluation graph's label.
    EvalGraph => [
        "Evaluation graph: click to go to a move",
        "形势曲线：点击跳到该步",
        "Biểu đồ đánh giá: bấm để đến nước đi",
    ],
    /// What a click on the engine's line does.
    PlayLine => [
        "Play this line into the move list",
        "把这一路着法加入着法列表",
        "Thêm chuỗi nước này vào danh sách",
    ],
    /// The comment box's label.
    CommentLabel => ["Comment on this move", "为这步棋写注释", "Bình luận nước đi này"],
    /// `{side} to move`.
    ToMove => ["{side} to move", "轮到{side}走", "Đến lượt {side}"],
    /// Said when the side to move is in check.
    InCheck => ["Check!", "将军！", "Chiếu!"],
    /// `{side} wins by {reason}`.
    WinsBy => ["{side} wins by {reason}", "{side}胜（{reason}）", "{side} thắng ({reason})"],
    /// `Draw by {reason}`.
    DrawBy => ["Draw by {reason}", "和棋（{reason}）", "Hòa ({reason})"],
    /// The end reason when a flag falls.
    OnTime => ["timeout", "超时", "hết giờ"],
    /// Heading of the promotion dialog.
    PromoteTo => ["Promote to", "升变为", "Phong cấp thành"],
    /// Cancel.
    Cancel => ["Cancel", "取消", "Hủy"],
    /// Close the game-over overlay.
    Close => ["Close", "关闭", "Đóng"],
    /// `Viewing move {n}` while stepping through the game.
    Viewing => ["Viewing move {n}", "正在查看第 {n} 步", "Đang xem nước {n}"],
    /// Hint for banqi.
    BanqiHint => ["Click a face-down piece to flip it.", "点击暗子可以翻开。", "Bấm vào quân úp để lật."],
    /// An empty square (for screen readers).
    Empty => ["empty", "空", "trống"],
    /// The move text could not be read.
    Unreadable => ["That move cannot be read.", "无法识别这步棋。", "Không đọc được nước đi này."],
    /// Undo took back moves that had comments, marks, arrows or variations.
    NotesTakenBack => [
        "Taken back, with the notes on those moves.",
        "已悔棋，这几步的注释也一并撤回。",
        "Đã đi lại; ghi chú của các nước đó cũng bị gỡ theo.",
    ],
    /// Puts back what Undo took (and its notes).
    RestoreTakenBack => ["Put them back", "恢复", "Khôi phục"],
    /// The move queued during the computer's turn could not be played after its reply.
    PremoveDropped => [
        "Your queued move was not possible after the reply, so it was dropped.",
        "对方应着后，预走的这步棋无法走出，已取消。",
        "Sau nước đáp, nước đi trước của bạn không còn hợp lệ nên đã bị hủy.",
    ],
    /// The computer's engine stopped without giving its move.
    EngineStopped => [
        "The computer's engine stopped without giving its move.",
        "电脑的引擎意外停止，没有走出这步棋。",
        "Bộ máy của máy tính đã dừng mà không đưa ra nước đi.",
    ],
    /// Asks the computer again for its move.
    AskComputerAgain => ["Ask again", "再试一次", "Thử lại"],
    /// Previous move in the move list.
    Previous => ["Previous move", "上一步", "Nước trước"],
    /// Next move in the move list.
    Next => ["Next move", "下一步", "Nước sau"],
    /// The board (for screen readers).
    Board => ["Board", "棋盘", "Bàn cờ"],
    /// `The saved game stops at move {n}, which could not be played.`
    StoppedAt => [
        "The saved game stops before move {n}, which could not be played.",
        "保存的对局在第 {n} 步处中断：这一步无法走出。",
        "Ván đã lưu dừng trước nước {n} vì nước này không đi được.",
    ],
    /// End a banqi chain capture.
    EndChain => ["Stop capturing", "停止连吃", "Dừng ăn tiếp"],
    /// A gomoku opening asks the player for a colour.
    ChooseColour => ["Choose your colour.", "请选择执黑或执白。", "Hãy chọn màu quân."],
    /// The same, when two more stones may be put instead (swap2).
    ChooseColourOrTwoMore => [
        "Choose your colour, or place two more stones (one white, one black) and let your opponent choose.",
        "请选择执黑或执白，或再下两子（一白一黑）让对手选择。",
        "Hãy chọn màu quân, hoặc đặt thêm hai quân (một Trắng, một Đen) để đối thủ chọn.",
    ],
    /// Take black (gomoku opening).
    TakeBlack => ["Take black", "执黑", "Cầm quân Đen"],
    /// The screen-reader mode (its setting and its panel's heading).
    ScreenReader => ["Screen-reader mode", "读屏模式", "Chế độ đọc màn hình"],
    /// A move typed on the computer's turn.
    NotYourTurn => [
        "It is the computer's turn: the move was not played.",
        "现在轮到电脑走，这步没有走出。",
        "Đang đến lượt máy: nước đi chưa được đi.",
    ],
    /// The screen-reader mode's field.
    SrField => ["Move or command", "着法或命令", "Nước đi hoặc lệnh"],
    /// What the screen-reader mode's field takes.
    SrHelp => [
        "Type a move (e4, Nf3, C2.5, 炮二平五, flip b3, b3-b4, h8) or a command: pieces, file e, rank 4, where king, last, clock, turn, help.",
        "输入着法（e4、Nf3、炮二平五、flip b3、h8）或命令：pieces（棋子）、file e（列）、rank 4（行）、where 马（在哪）、last（最近几步）、clock（时钟）、turn（轮到谁）、help。",
        "Gõ nước đi (e4, Nf3, 炮二平五, flip b3, h8) hoặc lệnh: pieces (quân), file e (cột), rank 4 (hàng), where vua (ở đâu), last (nước vừa đi), clock (đồng hồ), turn (lượt), help.",
    ],
    /// An empty square or point, in a list.
    SrEmpty => ["empty", "空", "trống"],
    /// No clock runs.
    SrNoClock => ["No clock in this game.", "本局没有计时。", "Ván này không có đồng hồ."],
    /// `No {what} on the board.`
    SrNotFound => ["No {what} on the board.", "棋盘上没有{what}。", "Không có {what} trên bàn."],
    /// No move has been played.
    SrNoMoves => ["No moves yet.", "还没有走棋。", "Chưa có nước đi nào."],
    /// A command that needs a file or rank, without one.
    SrWhichLine => [
        "Say which: file e, rank 4.",
        "请说明哪一列或哪一行：file e、rank 4。",
        "Hãy nói cột hoặc hàng nào: file e, rank 4.",
    ],
    /// `{n} face down`, in a list of banqi pieces.
    SrFaceDown => ["{n} face down", "暗子{n}个", "{n} quân úp"],
    /// The file chooser of Import/export.
    ImportFile => ["Import a file", "导入文件", "Nhập từ tệp"],
    /// A cell's name, after its content: part of the last move.
    CellLastMove => ["last move", "上一步", "nước vừa đi"],
    /// A cell's name: the king or general there is in check.
    CellCheck => ["in check", "被将军", "bị chiếu"],
    /// A cell's name: the selected piece may go there.
    CellLegal => ["can go here", "可走到这里", "đi được đến đây"],
    /// A cell's name: part of the move the hint suggests.
    CellSuggested => ["hint", "提示", "gợi ý"],
    /// A cell's name: part of the winning line.
    CellWinning => ["winning line", "连成一线", "hàng thắng"],
    /// Soosõrv-8: White declares how many fifth stones Black offers.
    DeclareOffers => [
        "How many fifth stones will Black offer? Declare 1 to 8.",
        "请声明黑方第五手的打点数目（1到8）。",
        "Bên Đen sẽ đưa ra bao nhiêu nước thứ năm? Chọn từ 1 đến 8.",
    ],
    /// `{n} fifth stones`: a declaration's button and its entry in the move list.
    OfferCount => ["fifth stones to offer: {n}", "{n}打", "số nước thứ năm: {n}"],
    /// `Black offers fifth stones: {k} of {n}.`
    OfferFifth => [
        "Black offers fifth stones: {k} of {n}.",
        "黑方打点：第{k}个，共{n}个。",
        "Bên Đen đưa ra nước thứ năm: {k} trên {n}.",
    ],
    /// White picks one of the offered fifth stones.
    PickOffer => [
        "White picks one of the offered fifth stones.",
        "白方从黑方的打点中选一个。",
        "Bên Trắng chọn một trong các nước thứ năm được đưa ra.",
    ],
    /// `offered fifth stone {n}`: a point's name while it is offered.
    OfferedStone => ["offered fifth stone {n}", "第{n}个打点", "nước thứ năm đề xuất {n}"],
    /// `offer {point}`: an offer in the move list.
    OfferMove => ["offer {point}", "打点 {point}", "đề xuất {point}"],
    /// Take white (gomoku opening).
    TakeWhite => ["Take white", "执白", "Cầm quân Trắng"],
    /// Zoom a big gomoku board on a narrow screen (a toggle).
    ZoomBoard => ["Zoom", "放大", "Phóng to"],
    /// The end reason when a player resigns.
    ByResignation => ["resignation", "认输", "xin thua"],
    /// The reason in "Draw by {reason}" for an agreed draw.
    ByAgreement => ["agreement", "协议", "thỏa thuận"],
    /// The reason for a result a record gives without saying why.
    AsRecorded => ["the record's result", "棋谱记载", "kết quả ghi trong biên bản"],
    /// Resign the game.
    Resign => ["Resign", "认输", "Xin thua"],
    /// Shown while the computer thinks.
    Thinking => ["The computer is thinking…", "电脑正在思考…", "Máy đang suy nghĩ…"],
    /// Gomoku's option: move numbers on the stones.
    StoneNumbers => ["Move numbers on stones", "棋子上显示手数", "Số nước trên quân"],
    /// The clock choice that opens minutes and increment fields.
    ClockCustom => ["Custom…", "自定义…", "Tùy chỉnh…"],
    /// The custom clock's minutes.
    ClockMinutes => ["Minutes each", "每方分钟", "Số phút mỗi bên"],
    /// The custom clock's increment.
    ClockIncrement => ["Seconds added a move", "每步加秒", "Giây cộng mỗi nước"],
    /// Banqi's tray: the pieces captured.
    Captured => ["Captured", "被吃", "Bị ăn"],
    /// Banqi's tray: how many of a colour are face down (`{n}`).
    FaceDownCount => ["{n} face down", "暗子 {n}", "{n} quân úp"],
    /// The piece set option (xiangqi, banqi).
    PieceSet => ["Pieces", "棋子", "Quân cờ"],
    /// Pieces with Chinese characters.
    PieceCharacters => ["Chinese characters", "汉字", "Chữ Hán"],
    /// Pieces with symbols.
    PieceSymbols => ["Symbols", "图形", "Biểu tượng"],
    /// The sound option.
    Sound => ["Sound", "声音", "Âm thanh"],
    /// No sound.
    SoundOff => ["Off", "关", "Tắt"],
    /// Quiet sounds.
    SoundQuiet => ["Quiet", "小声", "Nhỏ"],
    /// Loud sounds.
    SoundLoud => ["Loud", "大声", "To"],
    /// The tab's title while the computer waits for the person's move.
    YourMove => ["Your move", "轮到你走", "Đến lượt bạn"],
    /// The toggle that shows the computer's search figures (depth, nodes, speed).
    EngineDetails => ["Engine details", "引擎详情", "Chi tiết máy"],
    /// Ask the computer for a suggested move.
    Hint => ["Hint", "提示", "Gợi ý"],
    /// Go on from the position being viewed.
    PlayFromHere => ["Play from here", "从这里继续", "Chơi tiếp từ đây"],
    /// Mode picker label.
    Opponent => ["Players", "对手", "Người chơi"],
    /// Two people on one device.
    TwoPlayers => ["Two players", "双人对弈", "Hai người"],
    /// Against the computer, the person moving first.
    ComputerSecond => ["You move first, vs computer", "人机（我先走）", "Đấu với máy (bạn đi trước)"],
    /// Against the computer, the person moving second.
    ComputerFirst => ["Computer moves first", "人机（电脑先走）", "Đấu với máy (máy đi trước)"],
    /// The computer against itself.
    Watch => ["Computer vs computer", "电脑对电脑", "Máy đấu máy"],
    /// Level picker label.
    Level => ["Level", "难度", "Cấp độ"],
    /// Speed picker label.
    Speed => ["Speed", "速度", "Tốc độ"],
    /// Slow.
    Slow => ["Slow", "慢", "Chậm"],
    /// Normal.
    Normal => ["Normal", "中", "Vừa"],
    /// Fast.
    Fast => ["Fast", "快", "Nhanh"],
    /// Open the share dialog.
    Share => ["Share", "分享", "Chia sẻ"],
    /// Heading of the share dialog.
    ShareTitle => ["Share this game", "分享这局棋", "Chia sẻ ván cờ này"],
    /// The compact link.
    ShortLink => ["Link", "链接", "Liên kết"],
    /// The readable link.
    ReadableLink => ["Readable link", "可读链接", "Liên kết dễ đọc"],
    /// Copy to the clipboard.
    Copy => ["Copy", "复制", "Sao chép"],
    /// Said once copied.
    Copied => ["Copied", "已复制", "Đã sao chép"],
    /// The system share sheet.
    SystemShare => ["Share…", "分享…", "Chia sẻ…"],
    /// Caption of the QR code.
    QrCode => ["Scan with a phone", "用手机扫码", "Quét bằng điện thoại"],
    /// Banqi links carry the deal.
    BanqiLinkWarning => [
        "This link carries the whole deal: whoever opens it can find out every face-down piece. Fair play with hidden pieces needs a server that keeps the deal secret.",
        "此链接包含完整的发牌：打开链接的人可以查出每一个暗子。要公平地隐藏暗子，需要由服务器保管发牌。",
        "Liên kết này chứa toàn bộ cách chia quân: ai mở nó cũng có thể biết mọi quân úp. Muốn chơi công bằng với quân úp cần một máy chủ giữ kín cách chia.",
    ],
    /// Open the embed dialog.
    Embed => ["Embed", "嵌入", "Nhúng"],
    /// Heading of the embed dialog.
    EmbedTitle => ["Put this board on your page", "把棋盘放到你的网页上", "Đặt bàn cờ này lên trang của bạn"],
    /// Embed option: readers may play.
    EmbedPlay => ["Readers can play on", "读者可以接着下", "Người xem có thể chơi tiếp"],
    /// Embed option: step buttons.
    EmbedControls => ["Step buttons", "步进按钮", "Nút xem từng nước"],
    /// Embed option: move list.
    EmbedMoveList => ["Move list", "着法列表", "Danh sách nước đi"],
    /// Embed option: autoplay.
    EmbedAutoplay => ["Play through by itself", "自动播放", "Tự động phát"],
    /// Embed option: coordinates.
    EmbedCoords => ["Coordinates", "坐标", "Tọa độ"],
    /// Embed option: size.
    EmbedSize => ["Size (px)", "尺寸（像素）", "Kích thước (px)"],
    /// Embed option: open at the move being viewed.
    EmbedAtShownMove => ["Open at the move shown", "从当前显示的着法打开", "Mở ở nước đang xem"],
    /// The code to paste.
    Snippet => ["Code to paste into your page", "粘贴到网页中的代码", "Mã để dán vào trang của bạn"],
    /// The embed's preview.
    Preview => ["Preview", "预览", "Xem trước"],
    /// Start stepping through the game by itself.
    Autoplay => ["Play", "播放", "Phát"],
    /// Stop stepping through by itself.
    Pause => ["Pause", "暂停", "Tạm dừng"],
    /// Open the embedded game in the full app.
    OpenInQi => ["Open in Qi", "在 Qi 中打开", "Mở trong Qi"],
    /// The embed follows its reader's browser language.
    ReadersLanguage => ["The reader's language", "读者的语言", "Ngôn ngữ của người xem"],
    /// The link to the online page.
    PlayOnline => ["Play online", "在线对弈", "Chơi trực tuyến"],
    /// The frame with a game being played on the Qi server, live.
    WatchLive => ["Watch live", "观看直播", "Xem trực tiếp"],
    /// A position string, as an export format.
    PositionFormat => ["Position", "局面", "Thế cờ"],
    /// Open the records dialog.
    Records => ["Import / export", "导入 / 导出", "Nhập / xuất"],
    /// Import a record.
    Import => ["Import", "导入", "Nhập"],
    /// Heading of the export part.
    Export => ["Export", "导出", "Xuất"],
    /// Label of the import box.
    PasteRecord => [
        "Paste a record (PGN, FEN, moves) or choose a file",
        "粘贴棋谱（PGN、FEN、着法）或选择文件",
        "Dán biên bản (PGN, FEN, nước đi) hoặc chọn tệp",
    ],
    /// Download the record.
    Download => ["Download", "下载", "Tải xuống"],
    /// The record format picker.
    Format => ["Format", "格式", "Định dạng"],
    /// The encoding a downloaded record is written in.
    FileEncoding => ["Encoding", "编码", "Bảng mã"],
    /// `Line {line}, column {column}: {reason}`.
    RecordError => [
        "Line {line}, column {column}: {reason}",
        "第 {line} 行第 {column} 列：{reason}",
        "Dòng {line}, cột {column}: {reason}",
    ],
    /// `Imported {n} moves.`
    Imported => ["Imported: {n} moves.", "已导入：{n} 步。", "Đã nhập: {n} nước."],
    /// `The file was read as {encoding}.` (when it was not UTF-8)
    ReadAsEncoding => [
        "The file was read as {encoding}.",
        "文件按 {encoding} 编码读取。",
        "Tệp được đọc theo bảng mã {encoding}.",
    ],
    /// `{n} characters have no place in {encoding}: they were written as &#…; codes.`
    Unmappable => [
        "{n} characters have no place in {encoding}: the file writes them as &#…; codes.",
        "有 {n} 个字符无法用 {encoding} 表示：文件中写成 &#…; 代码。",
        "{n} ký tự không có trong {encoding}: tệp ghi chúng dưới dạng mã &#…;.",
    ],
    /// `This file holds {n} games: pick one.`
    PickGame => [
        "This file holds {n} games: pick one.",
        "此文件包含 {n} 局棋：请选择一局。",
        "Tệp này có {n} ván: hãy chọn một ván.",
    ],
    /// The search box over a file's games.
    SearchGames => ["Search players, event, date", "搜索棋手、赛事、日期", "Tìm người chơi, giải đấu, ngày"],
    /// `… and {n} more: narrow the search.`
    MoreGames => [
        "… and {n} more: narrow the search.",
        "……还有 {n} 局：请缩小搜索范围。",
        "… và {n} ván nữa: hãy thu hẹp tìm kiếm.",
    ],
    /// `{n} bytes could not be read (the first at line {line}, column {column}): the file may
    /// mix encodings.`
    UnreadableBytes => [
        "{n} bytes could not be read (the first at line {line}, column {column}): the file may mix encodings.",
        "有 {n} 处字节无法读取（第一处在第 {line} 行第 {column} 列）：文件可能混用了多种编码。",
        "Có {n} chỗ byte không đọc được (chỗ đầu ở dòng {line}, cột {column}): tệp có thể trộn nhiều bảng mã.",
    ],
    /// The first screen's button: a game against the computer in one click.
    PlayComputer => ["Play the computer", "与电脑对弈", "Chơi với máy"],
    /// What each level of the computer does, one line each (levels 1 to 6).
    Level1 => [
        "Beginner: looks one move ahead and often gives pieces away",
        "入门：只看一步，常常送子",
        "Mới chơi: chỉ nhìn trước một nước, hay mất quân",
    ],
    /// Level 2.
    Level2 => [
        "Casual: looks a little further, still blunders (chess: about 900 Elo)",
        "新手：看得稍远，仍常失误（国际象棋约900等级分）",
        "Nghiệp dư: nhìn xa hơn chút, vẫn hay đi hỏng (cờ vua: khoảng 900 Elo)",
    ],
    /// Level 3.
    Level3 => [
        "Club player: sees short tactics (chess: about 1600 Elo)",
        "业余：能看到简单战术（国际象棋约1600等级分）",
        "Câu lạc bộ: thấy được đòn chiến thuật ngắn (cờ vua: khoảng 1600 Elo)",
    ],
    /// Level 4.
    Level4 => [
        "Strong club player: seldom blunders (chess: about 2000 Elo)",
        "业余强手：很少失误（国际象棋约2000等级分）",
        "Câu lạc bộ mạnh: ít khi đi hỏng (cờ vua: khoảng 2000 Elo)",
    ],
    /// Level 5.
    Level5 => [
        "Expert: thinks up to 1.5 s a move (chess: about 2100 Elo)",
        "高手：每步最多想1.5秒（国际象棋约2100等级分）",
        "Cao thủ: nghĩ tới 1,5 giây mỗi nước (cờ vua: khoảng 2100 Elo)",
    ],
    /// Level 6.
    Level6 => [
        "Full strength: thinks up to 3 s a move",
        "全力：每步最多想3秒",
        "Toàn lực: nghĩ tới 3 giây mỗi nước",
    ],
    /// A gomoku opening's first three stones: `{colour}` is the next one's, `{k}` its number.
    PlaceOpeningStone => [
        "Place the three opening stones: now stone {k} of 3, {colour}.",
        "请下开局的三子：第{k}子（共3子），{colour}。",
        "Hãy đặt ba quân khai cuộc: quân thứ {k} trên 3, {colour}.",
    ],
    /// Swap2: the fifth stone, after which the opponent chooses a colour.
    PlaceFifthStone => [
        "Place one more stone, a black one; then your opponent chooses a colour.",
        "请再下一枚黑子，然后由对手选择执黑或执白。",
        "Hãy đặt thêm một quân Đen; sau đó đối thủ chọn màu.",
    ],
    /// Soosõrv-8: White's fourth stone.
    PlaceFourthStone => [
        "Place the fourth stone, a white one, anywhere on the board.",
        "请下第四子（白子），可下在棋盘任意位置。",
        "Hãy đặt quân thứ tư, quân Trắng, ở bất kỳ đâu trên bàn.",
    ],
    /// The computer plays its part of a gomoku opening.
    ComputerOpening => [
        "The computer is playing its part of the opening.",
        "电脑正在走开局中它的部分。",
        "Máy đang đi phần khai cuộc của mình.",
    ],
}

/// What the computer's `level` (1 to 6, clamped) does, as a line of text.
#[must_use]
pub const fn level_text(level: u8) -> Text {
    match level {
        0 | 1 => Text::Level1,
        2 => Text::Level2,
        3 => Text::Level3,
        4 => Text::Level4,
        5 => Text::Level5,
        _ => Text::Level6,
    }
}

/// The interface text `text` in `lang`.
#[must_use]
pub fn t(lang: Lang, text: Text) -> &'static str {
    pick(lang, TABLE[text as usize])
}

/// `template` with each `{name}` replaced by its value, in one pass: a value that itself holds
/// `{...}` (text from a link or a record) stays as it is.
#[must_use]
pub fn fill_all(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let found = after.find('}').and_then(|close| {
            let name = &after[..close];
            values.iter().find(|(n, _)| *n == name).map(|(_, value)| (close, *value))
        });
        match found {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `template` with `{name}` replaced by `value`.
#[must_use]
pub fn fill(template: &str, name: &str, value: &str) -> String {
    template.replace(&format!("{{{name}}}"), value)
}

/// A game's name.
#[must_use]
pub fn game_name(lang: Lang, kind: GameKind) -> &'static str {
    let [en, zh, vi] = match kind {
        GameKind::Chess => ["Chess", "国际象棋", "Cờ vua"],
        GameKind::Xiangqi => ["Xiangqi", "中国象棋", "Cờ tướng"],
        GameKind::Banqi => ["Banqi", "暗棋", "Cờ úp"],
        GameKind::Gomoku => ["Gomoku", "五子棋", "Cờ caro"],
    };
    pick(lang, [en, zh, vi])
}

/// What a side is called in a game. Banqi sides are named by colour once it is known
/// (`colour_known` = Some(is_red)).
#[must_use]
pub fn side_name(lang: Lang, kind: GameKind, side: Side, banqi_red: Option<bool>) -> &'static str {
    const WHITE: [&str; 3] = ["White", "白方", "Trắng"];
    const BLACK: [&str; 3] = ["Black", "黑方", "Đen"];
    const RED: [&str; 3] = ["Red", "红方", "Đỏ"];
    let names = match (kind, side) {
        (GameKind::Chess, Side::First) | (GameKind::Gomoku, Side::Second) => WHITE,
        (GameKind::Chess, Side::Second) | (GameKind::Gomoku, Side::First) => BLACK,
        (GameKind::Xiangqi, Side::First) => RED,
        (GameKind::Xiangqi, Side::Second) => BLACK,
        (GameKind::Banqi, _) => match banqi_red {
            Some(true) => RED,
            Some(false) => BLACK,
            None if side == Side::First => ["First player", "先手", "Người đi trước"],
            None => ["Second player", "后手", "Người đi sau"],
        },
    };
    pick(lang, names)
}

/// A piece's name for screen readers, from its game and code (`wK`, `rC`, `?`, `b`...).
#[must_use]
pub fn piece_name(lang: Lang, kind: GameKind, code: &str) -> String {
    let colour = match code {
        "?" => return pick(lang, ["face-down piece", "暗子", "quân úp"]).to_owned(),
        "b" => return pick(lang, ["black stone", "黑子", "quân đen"]).to_owned(),
        "w" => return pick(lang, ["white stone", "白子", "quân trắng"]).to_owned(),
        _ => code.chars().next().unwrap_or(' '),
    };
    let colour_name = match colour {
        'w' => pick(lang, ["white", "白", "trắng"]),
        'r' => pick(lang, ["red", "红", "đỏ"]),
        _ => pick(lang, ["black", "黑", "đen"]),
    };
    let role_name = role_name(lang, kind, code);
    match lang {
        Lang::Zh => format!("{colour_name}{role_name}"),
        Lang::En => format!("{colour_name} {role_name}"),
        Lang::Vi => format!("{role_name} {colour_name}"),
    }
}

/// What a piece is, without its colour ("knight", "炮"), from its game and code (`wN`, `rC`).
#[must_use]
pub fn role_name(lang: Lang, kind: GameKind, code: &str) -> &'static str {
    let role = code.chars().nth(1).unwrap_or(' ');
    match (role, kind == GameKind::Chess) {
        ('K', true) => pick(lang, ["king", "王", "Vua"]),
        ('Q', true) => pick(lang, ["queen", "后", "Hậu"]),
        ('R', true) => pick(lang, ["rook", "车", "Xe"]),
        ('B', true) => pick(lang, ["bishop", "象", "Tượng"]),
        ('N', true) => pick(lang, ["knight", "马", "Mã"]),
        ('P', true) => pick(lang, ["pawn", "兵", "Tốt"]),
        ('K', false) => pick(lang, ["general", "将", "Tướng"]),
        ('A', false) => pick(lang, ["advisor", "士", "Sĩ"]),
        ('B', false) => pick(lang, ["elephant", "象", "Tượng"]),
        ('N', false) => pick(lang, ["horse", "马", "Mã"]),
        ('R', false) => pick(lang, ["chariot", "车", "Xe"]),
        ('C', false) => pick(lang, ["cannon", "炮", "Pháo"]),
        ('P', false) => pick(lang, ["soldier", "兵", "Tốt"]),
        _ => "?",
    }
}

/// The name of a promotion piece (`q`, `r`, `b`, `n`).
#[must_use]
pub fn promotion_name(lang: Lang, piece: char) -> &'static str {
    match piece {
        'q' => pick(lang, ["Queen", "后", "Hậu"]),
        'r' => pick(lang, ["Rook", "车", "Xe"]),
        'b' => pick(lang, ["Bishop", "象", "Tượng"]),
        _ => pick(lang, ["Knight", "马", "Mã"]),
    }
}

/// The entry for `lang` of a row of the table.
#[must_use]
pub const fn pick(lang: Lang, row: [&'static str; 3]) -> &'static str {
    match lang {
        Lang::En => row[0],
        Lang::Zh => row[1],
        Lang::Vi => row[2],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_name_a_language_exactly() {
        assert_eq!(Lang::from_link("zh"), Some(Lang::Zh));
        assert_eq!(Lang::from_link(" zh-CN "), Some(Lang::Zh));
        assert_eq!(Lang::from_link("vi"), Some(Lang::Vi));
        assert_eq!(Lang::from_link("en"), Some(Lang::En));
        for bad in ["", "fr", "zh-TW", "EN", "english"] {
            assert_eq!(Lang::from_link(bad), None, "{bad}");
        }
    }

    #[test]
    fn browser_tags_choose_a_language() {
        assert_eq!(Lang::from_tag("zh-TW"), Lang::Zh);
        assert_eq!(Lang::from_tag("vi-VN"), Lang::Vi);
        assert_eq!(Lang::from_tag("en-GB"), Lang::En);
        assert_eq!(Lang::from_tag("fr"), Lang::En);
        assert_eq!(Lang::from_tag(""), Lang::En);
    }

    #[test]
    fn templates_fill_in() {
        let text = fill(
            t(Lang::Zh, Text::ToMove),
            "side",
            side_name(Lang::Zh, GameKind::Xiangqi, Side::First, None),
        );
        assert_eq!(text, "轮到红方走");
    }

    #[test]
    fn piece_names_in_each_language() {
        assert_eq!(piece_name(Lang::En, GameKind::Xiangqi, "rC"), "red cannon");
        assert_eq!(piece_name(Lang::En, GameKind::Chess, "bK"), "black king");
        assert_eq!(piece_name(Lang::En, GameKind::Banqi, "bK"), "black general");
        assert_eq!(piece_name(Lang::Zh, GameKind::Banqi, "?"), "暗子");
        assert_eq!(piece_name(Lang::Vi, GameKind::Chess, "wK"), "Vua trắng");
    }
}

#[cfg(test)]
mod fill_tests {
    use super::fill_all;

    #[test]
    fn values_are_never_filled_in_themselves() {
        assert_eq!(
            fill_all("game “{text}” at {n}", &[("text", "{n}{reason}"), ("n", "3")]),
            "game “{n}{reason}” at 3"
        );
        assert_eq!(fill_all("{a}{b}{", &[("a", "1")]), "1{b}{");
        assert_eq!(fill_all("", &[]), "");
        assert_eq!(fill_all("棋{x}局", &[("x", "—")]), "棋—局");
    }
}
