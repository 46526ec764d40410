//! Every string of the online page that the app's table ([`qi_i18n::text`]) does not already
//! have, in English, 简体中文 and Tiếng Việt. Templates take `{name}` placeholders, filled with
//! [`qi_i18n::text::fill_all`].

use qi_i18n::text::{Lang, pick};

/// Declares [`Words`] and its table together: each piece of text with its doc and its three
/// languages (English, 简体中文, Tiếng Việt, in [`Lang::ALL`]'s order), so the table is data, one
/// row per piece, and a piece without its three texts does not compile.
macro_rules! words {
    ($($(#[doc = $doc:literal])* $name:ident => [$en:literal, $zh:literal, $vi:literal $(,)?],)*) => {
        /// A piece of the online page's text.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Words {
            $($(#[doc = $doc])* $name,)*
        }

        /// Each piece's texts, in the order of [`Words`].
        const TABLE: &[[&str; 3]] = &[$([$en, $zh, $vi],)*];
    };
}

words! {
    /// The page's heading.
    Title => ["Qi — play online", "棋 — 在线对弈", "Qi — chơi trực tuyến"],
    /// The link back to the app.
    PlayOnThisDevice => ["Play on this device", "本机对弈", "Chơi trên máy này"],
    /// The link to the lobby.
    Lobby => ["Lobby", "大厅", "Sảnh"],
    /// Connection state: opening.
    Connecting => ["Connecting…", "正在连接…", "Đang kết nối…"],
    /// Connection state: open.
    Connected => ["Connected", "已连接", "Đã kết nối"],
    /// Connection state: lost, retrying in `{s}` seconds.
    Reconnecting => [
        "Connection lost — trying again in {s} s",
        "连接已断开，{s} 秒后重试",
        "Mất kết nối — thử lại sau {s} giây",
    ],
    /// Connection state: never reached, retrying in `{s}` seconds.
    NoServerYet => [
        "No server — trying again in {s} s",
        "没有服务器，{s} 秒后重试",
        "Không có máy chủ — thử lại sau {s} giây",
    ],
    /// The page cannot reach the server at all.
    NeedsServer => [
        "Online play is not available: the game server cannot be reached.",
        "暂时无法在线对弈：连接不上对局服务器。",
        "Hiện không chơi trực tuyến được: không kết nối được máy chủ trò chơi.",
    ],
    /// Under [`Words::NeedsServer`]: it keeps trying.
    NeedsServerRetry => [
        "This page keeps trying to reach it. Games on this device need no server.",
        "本页会继续尝试连接。本机对弈不需要服务器。",
        "Trang này sẽ tiếp tục thử kết nối. Chơi trên máy này không cần máy chủ.",
    ],
    /// The server speaks another protocol version.
    Outdated => [
        "The server runs another version: reload the page.",
        "服务器版本不同：请刷新页面。",
        "Máy chủ chạy phiên bản khác: hãy tải lại trang.",
    ],
    /// Retry now.
    TryAgain => ["Try again now", "立即重试", "Thử lại ngay"],
    /// The name field's label.
    YourName => ["Your name", "你的名字", "Tên của bạn"],
    /// What an unnamed player is called.
    Anonymous => ["Anonymous", "匿名", "Ẩn danh"],
    /// The Chess960 option.
    Chess960 => ["Chess960 (shuffled start)", "Chess960（随机开局）", "Chess960 (xếp quân ngẫu nhiên)"],
    /// A clock chosen by hand.
    CustomClock => ["Custom", "自定义", "Tùy chỉnh"],
    /// Minutes for the game.
    Minutes => ["Minutes", "分钟", "Phút"],
    /// Seconds added per move.
    IncrementSecs => ["Seconds per move", "每步加秒", "Giây cộng mỗi nước"],
    /// The seat picker's label.
    YourSide => ["Your side", "你的先后手", "Lượt của bạn"],
    /// Either seat.
    SeatRandom => ["Random", "随机", "Ngẫu nhiên"],
    /// Create a game with an invite link.
    CreateGame => ["Create game", "创建对局", "Tạo ván"],
    /// Be paired with anyone.
    QuickPairing => ["Quick pairing", "快速匹配", "Ghép cặp nhanh"],
    /// Waiting for a pairing.
    Seeking => [
        "Looking for an opponent for {game}…",
        "正在为{game}寻找对手…",
        "Đang tìm đối thủ chơi {game}…",
    ],
    /// The invite link's label.
    InviteLink => [
        "Invite link — send it to your opponent",
        "邀请链接 — 发给你的对手",
        "Liên kết mời — gửi cho đối thủ",
    ],
    /// The spectators' link's label.
    WatchLink => ["Link for spectators", "观战链接", "Liên kết cho người xem"],
    /// Copy a link.
    Copy => ["Copy", "复制", "Sao chép"],
    /// A link was copied.
    Copied => ["Copied", "已复制", "Đã sao chép"],
    /// The creator waits for the opponent.
    WaitingForOpponent => [
        "Waiting for your opponent to open the invite link…",
        "等待对手打开邀请链接…",
        "Đang chờ đối thủ mở liên kết mời…",
    ],
    /// An invite link was opened.
    Invited => ["You are invited to a game.", "有人邀请你下一局棋。", "Bạn được mời vào một ván cờ."],
    /// Take the invite.
    JoinGame => ["Join the game", "加入对局", "Vào ván"],
    /// The game is being fetched.
    OpeningGame => ["Opening the game…", "正在打开对局…", "Đang mở ván cờ…"],
    /// The receiver watches.
    Watching => ["You are watching.", "你正在观战。", "Bạn đang xem."],
    /// `{n}` spectators.
    WatchersCount => ["{n} watching", "{n} 人观战", "{n} người xem"],
    /// An empty seat.
    EmptySeat => ["(free seat)", "（空位）", "(chỗ trống)"],
    /// Marks the player's own name.
    You => ["you", "你", "bạn"],
    /// A player is connected.
    Present => ["connected", "在线", "trực tuyến"],
    /// A player is away.
    Away => ["away", "已离开", "vắng mặt"],
    /// Offer a draw.
    OfferDraw => ["Offer a draw", "提和", "Cầu hòa"],
    /// Accept the opponent's draw offer.
    AcceptDraw => ["Accept the draw", "同意和棋", "Đồng ý hòa"],
    /// Decline it.
    DeclineDraw => ["Decline", "拒绝", "Từ chối"],
    /// The opponent offers a draw.
    DrawOffered => ["Your opponent offers a draw.", "对手提议和棋。", "Đối thủ cầu hòa."],
    /// `{side}` offers a draw (for spectators).
    DrawOfferedBy => ["{side} offers a draw.", "{side}提议和棋。", "{side} cầu hòa."],
    /// The player's own draw offer stands.
    DrawOfferSent => ["You offered a draw.", "你已提和。", "Bạn đã cầu hòa."],
    /// Abort the game.
    Abort => ["Abort", "中止对局", "Hủy ván"],
    /// Offer a rematch.
    Rematch => ["Rematch", "再来一局", "Đấu lại"],
    /// Accept the opponent's rematch offer.
    AcceptRematch => ["Accept the rematch", "接受再战", "Nhận đấu lại"],
    /// The opponent wants a rematch.
    RematchOffered => ["Your opponent wants a rematch.", "对手想再下一局。", "Đối thủ muốn đấu lại."],
    /// The player's own rematch offer stands.
    RematchSent => ["You offered a rematch.", "你已提出再战。", "Bạn đã mời đấu lại."],
    /// Claim the win when the opponent is away.
    ClaimWin => ["Claim the win", "判我获胜", "Xin xử thắng"],
    /// The opponent is away: the win may be claimed once the grace period passes.
    OpponentAway => [
        "Your opponent has left. If they stay away, you can claim the win.",
        "对手已离开。如果对手一直不回来，你可以要求判胜。",
        "Đối thủ đã rời đi. Nếu họ không quay lại, bạn có thể xin xử thắng.",
    ],
    /// The player's own move is on its way.
    Sending => ["Sending your move…", "正在发送你的着法…", "Đang gửi nước đi…"],
    /// It is the player's turn.
    YourMove => ["Your move", "轮到你走", "Đến lượt bạn"],
    /// The player's side: `{side}`.
    YouPlay => ["You play {side}.", "你执{side}。", "Bạn cầm quân {side}."],
    /// A draw agreed.
    DrawAgreed => ["Draw by agreement", "双方同意和棋", "Hòa theo thỏa thuận"],
    /// The game was aborted.
    Aborted => ["The game was aborted.", "对局已中止。", "Ván cờ đã bị hủy."],
    /// `{side}` won because the opponent stayed away.
    WonByAbandonment => [
        "{side} wins: the opponent left",
        "{side}胜（对手离开）",
        "{side} thắng (đối thủ bỏ đi)",
    ],
    /// `{side}` won (the reason not known to this page).
    Won => ["{side} wins", "{side}胜", "{side} thắng"],
    /// A draw (the reason not known to this page).
    Drawn => ["Draw", "和棋", "Hòa"],
    /// Open the finished game in the app.
    ReviewInApp => ["Review in the app", "在应用中复盘", "Xem lại trong ứng dụng"],
    /// The banqi deal, shown after the end.
    TheDeal => ["The whole deal", "完整发牌", "Toàn bộ cách chia quân"],
    /// The move was illegal by the server's rules, for a reason this page does not see.
    RefusedIllegal => [
        "The server refused this move.",
        "服务器拒绝了这步棋。",
        "Máy chủ từ chối nước đi này.",
    ],
    /// It was not the player's turn.
    RefusedNotYourTurn => [
        "It is not your turn: the move was taken back.",
        "还没轮到你：这步棋已撤回。",
        "Chưa đến lượt bạn: nước đi đã được rút lại.",
    ],
    /// The game had moved on.
    RefusedWrongPly => [
        "The game had moved on: the move was taken back.",
        "对局已有新进展：这步棋已撤回。",
        "Ván cờ đã đổi: nước đi đã được rút lại.",
    ],
    /// The game is not being played.
    RefusedNotPlaying => [
        "The game is not being played now.",
        "对局当前不在进行中。",
        "Ván cờ hiện không diễn ra.",
    ],
    /// The sender holds no seat.
    RefusedNotAPlayer => [
        "You hold no seat in this game.",
        "你不是这局棋的棋手。",
        "Bạn không phải người chơi của ván này.",
    ],
    /// The server could not read a message.
    ErrorBadMessage => [
        "The server could not read this page's message.",
        "服务器无法读取本页发出的消息。",
        "Máy chủ không đọc được tin nhắn của trang này.",
    ],
    /// The server did not expect the message now.
    ErrorUnexpected => [
        "The server did not accept that now.",
        "服务器现在不接受这个请求。",
        "Máy chủ không nhận yêu cầu đó lúc này.",
    ],
    /// The name was refused.
    ErrorBadName => [
        "That name is not allowed: at most 20 characters, all visible, plain spaces only.",
        "这个名字不可用：最多 20 个字符，须是可见字符，只能用普通空格。",
        "Tên này không dùng được: tối đa 20 ký tự nhìn thấy được, chỉ dùng dấu cách thường.",
    ],
    /// A guest's name refused because it is (or looks like) a registered player's.
    ErrorNameTaken => [
        "That name belongs to a registered player: sign in, or choose another name.",
        "这个名字属于一位注册棋手：请登录，或换一个名字。",
        "Tên này thuộc về một người chơi đã đăng ký: hãy đăng nhập, hoặc chọn tên khác.",
    ],
    /// No such game.
    ErrorUnknownGame => [
        "There is no such game on the server.",
        "服务器上没有这局棋。",
        "Máy chủ không có ván cờ này.",
    ],
    /// A token that is not the game's.
    ErrorBadToken => [
        "This link is not valid for that game.",
        "这个链接对该对局无效。",
        "Liên kết này không hợp lệ cho ván đó.",
    ],
    /// The seat is taken.
    ErrorSeatTaken => [
        "Both seats are taken: you are watching instead.",
        "两个座位都已有人：你将以观战身份进入。",
        "Cả hai chỗ đã có người: bạn sẽ xem ván.",
    ],
    /// The game or clock was refused.
    ErrorBadSpec => [
        "The server does not offer that game or clock.",
        "服务器不提供这种棋或时限。",
        "Máy chủ không có loại cờ hoặc đồng hồ đó.",
    ],
    /// Too many games.
    ErrorTooManyGames => [
        "Too many games at once: finish one first.",
        "同时进行的对局太多：请先下完一局。",
        "Quá nhiều ván cùng lúc: hãy chơi xong một ván trước.",
    ],
    /// A limit on one address (new games or aborts a minute, unfinished games).
    ErrorRateLimited => [
        "Too many games from your network at once: wait a little, or finish one.",
        "来自你所在网络的对局太多：请稍等片刻，或先下完一局。",
        "Quá nhiều ván từ mạng của bạn: hãy đợi một chút, hoặc chơi xong một ván.",
    ],
    /// A chat line was not sent (the detail says why).
    ErrorBadChat => ["Your message was not sent.", "你的消息没有发出。", "Tin nhắn của bạn chưa được gửi."],
    /// A takeback could not be asked or answered (the detail says why).
    ErrorNoTakeback => ["No takeback now.", "现在不能悔棋。", "Bây giờ không thể đi lại."],
    /// Ask to take back one's last move.
    AskTakeback => ["Ask to take back", "请求悔棋", "Xin đi lại"],
    /// Accept the opponent's takeback request.
    AcceptTakeback => ["Accept the takeback", "同意悔棋", "Đồng ý cho đi lại"],
    /// Decline it.
    DeclineTakeback => ["Decline", "拒绝", "Từ chối"],
    /// The opponent asks to take back a move.
    TakebackOffered => [
        "Your opponent asks to take back a move.",
        "对手请求悔棋。",
        "Đối thủ xin đi lại một nước.",
    ],
    /// `{side}` asks to take back a move (for spectators).
    TakebackOfferedBy => [
        "{side} asks to take back a move.",
        "{side}请求悔棋。",
        "{side} xin đi lại một nước.",
    ],
    /// The player's own takeback request stands.
    TakebackSent => ["You asked to take back your move.", "你已请求悔棋。", "Bạn đã xin đi lại."],
    /// The player's own takeback request was declined.
    TakebackDeclined => [
        "Your takeback request was declined.",
        "你的悔棋请求被拒绝了。",
        "Yêu cầu đi lại của bạn bị từ chối.",
    ],
    /// The players' chat's heading.
    ChatPlayers => ["Chat", "聊天", "Trò chuyện"],
    /// The spectators' chat's heading.
    ChatSpectators => ["Spectators' chat", "观众聊天", "Trò chuyện của người xem"],
    /// The chat's text field's label.
    ChatMessage => ["Message", "消息", "Tin nhắn"],
    /// Send a chat line.
    Send => ["Send", "发送", "Gửi"],
    /// Hide what others write.
    Mute => ["Mute", "屏蔽", "Ẩn tin nhắn"],
    /// Show it again.
    Unmute => ["Unmute", "取消屏蔽", "Hiện tin nhắn"],
    /// Said in place of the lines while muted.
    ChatMuted => [
        "Chat muted: messages are hidden.",
        "已屏蔽：消息已隐藏。",
        "Đã ẩn trò chuyện: tin nhắn bị ẩn.",
    ],
    /// No line yet.
    ChatEmpty => ["No messages yet.", "还没有消息。", "Chưa có tin nhắn."],
    /// A line this page cannot show (from a newer version).
    ChatUnknown => [
        "(a message this page cannot show)",
        "（本页无法显示的消息）",
        "(tin nhắn trang này không hiển thị được)",
    ],
    /// The quick messages' group label.
    QuickMessages => ["Quick messages", "快捷消息", "Tin nhắn nhanh"],
    /// Quick message: hello.
    QuickHello => ["Hello!", "你好！", "Xin chào!"],
    /// Quick message: good luck.
    QuickGoodLuck => ["Good luck!", "祝你好运！", "Chúc may mắn!"],
    /// Quick message: good game.
    QuickGoodGame => ["Good game!", "下得好！", "Ván cờ hay!"],
    /// Quick message: thanks.
    QuickThanks => ["Thanks!", "谢谢！", "Cảm ơn!"],
    /// Quick message: rematch?
    QuickRematch => ["Rematch?", "再来一局？", "Đấu lại nhé?"],
    /// The open challenges' heading.
    OpenChallenges => ["Open challenges", "公开挑战", "Lời mời đang mở"],
    /// No open challenge.
    NoChallenges => [
        "No open challenge right now: create one, and it shows here for everyone.",
        "目前没有公开挑战：创建一个，所有人都能在这里看到。",
        "Chưa có lời mời nào: hãy tạo một lời mời, mọi người sẽ thấy ở đây.",
    ],
    /// Accept a challenge.
    Accept => ["Accept", "接受", "Nhận lời"],
    /// This browser's own challenge: open it.
    YourChallenge => ["Yours: open it", "你的挑战：打开", "Của bạn: mở ra"],
    /// A challenger plays `{side}`.
    PlaysSide => ["plays {side}", "执{side}", "cầm quân {side}"],
    /// The games being played: heading.
    GamesNow => ["Games now", "正在进行的对局", "Ván đang diễn ra"],
    /// No game being played.
    NoGamesNow => [
        "No game is being played right now.",
        "目前没有正在进行的对局。",
        "Hiện không có ván nào đang diễn ra.",
    ],
    /// The filter for every game.
    AllGames => ["All", "全部", "Tất cả"],
    /// `{n}` wait in quick pairing for the game chosen.
    WaitingCount => ["{n} waiting for this game", "{n} 人在等这种对局", "{n} người đang chờ ván này"],
    /// Who may take the free seat of a created game.
    WhoMayJoin => ["Who may join", "谁可以加入", "Ai có thể vào"],
    /// Anyone in the lobby.
    JoinAnyone => ["Anyone (listed in the lobby)", "任何人（在大厅公开）", "Bất kỳ ai (hiện trong sảnh)"],
    /// Only with the invite link.
    JoinInvite => ["Only with the invite link", "仅限邀请链接", "Chỉ người có liên kết mời"],
    /// The server sent something this page cannot use.
    ServerNonsense => [
        "The server sent a game this page cannot follow.",
        "服务器发来的对局无法在本页显示。",
        "Máy chủ gửi một ván cờ mà trang này không theo được.",
    ],
    /// The page's address is not a game's.
    BadLink => [
        "This address does not name a game.",
        "这个地址不是对局链接。",
        "Địa chỉ này không trỏ tới ván cờ nào.",
    ],
    /// `Server: {detail}`.
    ServerSays => ["Server: {detail}", "服务器：{detail}", "Máy chủ: {detail}"],
    /// A rated game needs both players signed in.
    ErrorNeedsAccount => [
        "Rated games are between two signed-in players.",
        "计分对局需要双方都已登录。",
        "Ván tính điểm cần cả hai người chơi đã đăng nhập.",
    ],
    /// The account box's heading.
    Account => ["Account", "账户", "Tài khoản"],
    /// Under the heading, while signed out: what an account gives.
    AccountHint => [
        "Optional: an account keeps your name, a rating and a profile.",
        "可选：有账户就能保留名字、积分和个人主页。",
        "Không bắt buộc: tài khoản giữ tên, điểm và trang cá nhân của bạn.",
    ],
    /// The username field's label.
    Username => ["Username", "用户名", "Tên đăng nhập"],
    /// The password field's label.
    Password => ["Password", "密码", "Mật khẩu"],
    /// The current password's label (to change it).
    CurrentPassword => ["Current password", "当前密码", "Mật khẩu hiện tại"],
    /// The new password's label.
    NewPassword => ["New password", "新密码", "Mật khẩu mới"],
    /// Sign in.
    SignIn => ["Sign in", "登录", "Đăng nhập"],
    /// Make an account.
    Register => ["Register", "注册", "Đăng ký"],
    /// Sign this browser out.
    LogOut => ["Log out", "退出登录", "Đăng xuất"],
    /// End every session of the account.
    LogOutEverywhere => ["Log out everywhere", "在所有设备上退出", "Đăng xuất mọi nơi"],
    /// Open the password change form.
    ChangePassword => ["Change password", "修改密码", "Đổi mật khẩu"],
    /// Save the new password.
    SavePassword => ["Save the new password", "保存新密码", "Lưu mật khẩu mới"],
    /// The password was changed.
    PasswordChanged => [
        "Password changed: your other sessions are signed out.",
        "密码已修改：其他会话均已退出。",
        "Đã đổi mật khẩu: các phiên khác đã bị đăng xuất.",
    ],
    /// `Signed in as {name}`.
    SignedInAs => ["Signed in as {name}", "已登录：{name}", "Đã đăng nhập: {name}"],
    /// The name field while signed in: the username is the name.
    NameIsUsername => [
        "Your name (your username while signed in)",
        "你的名字（登录时即用户名）",
        "Tên của bạn (là tên đăng nhập khi đã đăng nhập)",
    ],
    /// The ratings' heading.
    Ratings => ["Ratings", "积分", "Điểm"],
    /// What the `?` after a rating means.
    ProvisionalNote => [
        "A ? marks a provisional rating: few games yet.",
        "带 ? 的积分为暂定积分：对局还不多。",
        "Dấu ? là điểm tạm tính: còn ít ván.",
    ],
    /// A request is on its way.
    Working => ["Working…", "处理中…", "Đang xử lý…"],
    /// The rated-game checkbox.
    RatedGame => ["Rated game", "计分对局", "Ván tính điểm"],
    /// Beside it while signed out.
    RatedNeedsAccount => [
        "Sign in to play rated games.",
        "登录后才能下计分对局。",
        "Hãy đăng nhập để chơi ván tính điểm.",
    ],
    /// A rated game, in labels.
    Rated => ["Rated", "计分", "Tính điểm"],
    /// The username breaks the rules.
    AccountBadUsername => [
        "Usernames are 3 to 20 letters, digits, _ or -, starting and ending with a letter or digit.",
        "用户名为 3 到 20 个字母、数字、_ 或 -，且须以字母或数字开头和结尾。",
        "Tên đăng nhập gồm 3 đến 20 chữ cái, chữ số, _ hoặc -, bắt đầu và kết thúc bằng chữ cái hoặc chữ số.",
    ],
    /// The password breaks the rules.
    AccountBadPassword => [
        "Passwords are 8 to 128 characters long.",
        "密码长度为 8 到 128 个字符。",
        "Mật khẩu dài từ 8 đến 128 ký tự.",
    ],
    /// The username is taken.
    AccountNameTaken => [
        "That username is taken.",
        "这个用户名已被使用。",
        "Tên đăng nhập này đã có người dùng.",
    ],
    /// Wrong username or password.
    AccountWrongCredentials => [
        "Wrong username or password.",
        "用户名或密码错误。",
        "Sai tên đăng nhập hoặc mật khẩu.",
    ],
    /// Too many attempts (the detail says when to try again).
    AccountTooManyAttempts => [
        "Too many attempts: wait a little before trying again.",
        "尝试次数过多：请稍后再试。",
        "Thử quá nhiều lần: hãy đợi một lúc rồi thử lại.",
    ],
    /// Not signed in (any more).
    AccountNotSignedIn => [
        "You are not signed in (any more).",
        "你尚未登录（或登录已失效）。",
        "Bạn chưa đăng nhập (hoặc phiên đã hết hạn).",
    ],
    /// No such player.
    AccountUnknownPlayer => [
        "There is no player of that name.",
        "没有这个名字的棋手。",
        "Không có người chơi nào tên này.",
    ],
    /// The server cannot do it now.
    AccountUnavailable => [
        "The server could not do that now: try again.",
        "服务器暂时无法处理：请重试。",
        "Máy chủ chưa làm được việc này: hãy thử lại.",
    ],
    /// Something else went wrong.
    AccountOther => ["The server refused that.", "服务器拒绝了这个请求。", "Máy chủ từ chối yêu cầu này."],
    /// The profile is being fetched.
    ProfileLoading => ["Loading the profile…", "正在加载个人主页…", "Đang tải trang cá nhân…"],
    /// `Playing since {date}`.
    ProfileSince => ["Playing since {date}", "注册于 {date}", "Chơi từ {date}"],
    /// A kind of game with no rated game yet.
    NoRatedGames => ["No rated games yet", "还没有计分对局", "Chưa có ván tính điểm"],
    /// `{n} rated games`.
    RatedGamesCount => ["{n} rated games", "{n} 局计分对局", "{n} ván tính điểm"],
    /// One rated game.
    RatedGameOne => ["1 rated game", "1 局计分对局", "1 ván tính điểm"],
    /// The graph's summary: `{game} rating from {from} to {to} over {n} games`.
    RatingGraphLabel => [
        "{game} rating from {from} to {to} over {n} games",
        "{game}积分：{n} 局内从 {from} 到 {to}",
        "Điểm {game} từ {from} đến {to} qua {n} ván",
    ],
    /// The graph's summary after one game: `{game} rating from {from} to {to} after one game`.
    RatingGraphLabelOne => [
        "{game} rating from {from} to {to} after one game",
        "{game}积分：一局后从 {from} 到 {to}",
        "Điểm {game} từ {from} đến {to} sau một ván",
    ],
    /// The profile's games' heading.
    RecentGames => ["Recent games", "最近的对局", "Các ván gần đây"],
    /// No finished game.
    NoGamesYet => ["No finished games yet.", "还没有下完的对局。", "Chưa có ván nào kết thúc."],
    /// A column: the date.
    ColumnDate => ["Date", "日期", "Ngày"],
    /// A column: the game.
    ColumnGame => ["Game", "对局", "Ván"],
    /// A column: the opponent.
    ColumnOpponent => ["Opponent", "对手", "Đối thủ"],
    /// A column: the result.
    ColumnResult => ["Result", "结果", "Kết quả"],
    /// The profile owner won.
    ResultWon => ["Won", "胜", "Thắng"],
    /// The profile owner lost.
    ResultLost => ["Lost", "负", "Thua"],
    /// A draw.
    ResultDraw => ["Draw", "和", "Hòa"],
    /// Aborted.
    ResultAborted => ["Aborted", "中止", "Đã hủy"],
    /// By resignation.
    ByResignation => ["by resignation", "认输", "do xin thua"],
    /// On time.
    ByTimeout => ["on time", "超时", "hết giờ"],
    /// By agreement.
    ByAgreement => ["by agreement", "协议", "theo thỏa thuận"],
    /// The loser stayed away (and the winner claimed the game).
    ByAbandonment => ["by abandonment", "弃局", "do bỏ ván"],
    /// Open a game in the app's review.
    Review => ["Review", "复盘", "Xem lại"],
    /// Open a game's page.
    GamePage => ["Game page", "对局页面", "Trang ván cờ"],
    /// Back to the lobby.
    BackToLobby => ["Back to the lobby", "返回大厅", "Về sảnh"],
    /// The tournaments' heading, and the link to them.
    Tournaments => ["Tournaments", "比赛", "Giải đấu"],
    /// The list's sections.
    TournamentsUpcoming => ["Starting soon", "即将开始", "Sắp diễn ra"],
    /// Running now.
    TournamentsRunning => ["Playing now", "进行中", "Đang diễn ra"],
    /// Over.
    TournamentsFinished => ["Finished", "已结束", "Đã kết thúc"],
    /// No tournament in a section.
    NoTournaments => ["None for now.", "暂无。", "Chưa có."],
    /// The form's heading and its button.
    CreateTournament => ["Create a tournament", "创建比赛", "Tạo giải đấu"],
    /// Creating needs an account.
    SignInToCreate => [
        "Sign in to create a tournament or to join one.",
        "登录后即可创建或参加比赛。",
        "Đăng nhập để tạo hoặc tham gia giải đấu.",
    ],
    /// The form's fields.
    TournamentName => ["Name", "名称", "Tên"],
    /// The format.
    TournamentFormat => ["Format", "赛制", "Thể thức"],
    /// lichess's arena.
    FormatArena => ["Arena", "竞技场", "Đấu trường"],
    /// The Dutch system.
    FormatSwiss => ["Swiss", "瑞士制", "Hệ Thụy Sĩ"],
    /// Everyone meets everyone.
    FormatRoundRobin => ["Round robin", "循环赛", "Vòng tròn"],
    /// The arena's length.
    ArenaMinutes => ["Length (minutes)", "时长（分钟）", "Thời lượng (phút)"],
    /// A Swiss's rounds.
    SwissRounds => ["Rounds", "轮数", "Số vòng"],
    /// When it starts.
    StartsInMinutes => ["Starts in (minutes)", "几分钟后开始", "Bắt đầu sau (phút)"],
    /// The clock's minutes.
    ClockMinutes => ["Clock (minutes)", "每方用时（分钟）", "Đồng hồ (phút)"],
    /// The clock's increment.
    ClockIncrement => ["Increment (seconds)", "每步加秒", "Cộng giây mỗi nước"],
    /// The most players.
    MaxPlayers => ["Most players", "人数上限", "Số người tối đa"],
    /// An optional password.
    TournamentPassword => ["Password (optional)", "密码（可不填）", "Mật khẩu (không bắt buộc)"],
    /// A private tournament's password, to join.
    JoinPassword => ["Password", "密码", "Mật khẩu"],
    /// Join.
    JoinTournament => ["Join", "参加", "Tham gia"],
    /// Leave (a Swiss or a round robin).
    WithdrawTournament => ["Withdraw", "退出", "Rút lui"],
    /// Pause (an arena: may join again).
    PauseTournament => ["Pause", "暂停", "Tạm nghỉ"],
    /// The page is loading.
    TournamentLoading => ["Loading the tournament…", "正在加载比赛…", "Đang tải giải đấu…"],
    /// No such tournament.
    TournamentNotFound => ["No such tournament.", "没有这个比赛。", "Không có giải đấu này."],
    /// How many play: `{n} players`.
    PlayersCount => ["{n} players", "{n} 名棋手", "{n} người chơi"],
    /// Starts at `{time}`.
    StartsAt => ["Starts {time}", "{time} 开始", "Bắt đầu {time}"],
    /// Ends at `{time}`.
    EndsAt => ["Ends {time}", "{time} 结束", "Kết thúc {time}"],
    /// `Round {r} of {n}`.
    RoundOf => ["Round {r} of {n}", "第 {r} 轮，共 {n} 轮", "Vòng {r}/{n}"],
    /// The stages.
    StageUpcoming => ["Not started", "未开始", "Chưa bắt đầu"],
    /// Under way.
    StageRunning => ["Under way", "进行中", "Đang diễn ra"],
    /// Over.
    StageFinished => ["Over", "已结束", "Đã kết thúc"],
    /// Did not take place.
    StageCancelled => ["Cancelled: too few players", "已取消：人数不足", "Đã hủy: không đủ người"],
    /// The standings' heading.
    Standings => ["Standings", "排名", "Bảng xếp hạng"],
    /// The standings' columns.
    ColumnPlayer => ["Player", "棋手", "Người chơi"],
    /// Points.
    ColumnPoints => ["Points", "积分", "Điểm"],
    /// Tie-breaks (or an arena's performance).
    ColumnTiebreaks => ["Tie-breaks", "对手分", "Hệ số phụ"],
    /// An arena's performance.
    ColumnPerformance => ["Performance", "表现分", "Hiệu suất"],
    /// Two wins in a row: the next counts double.
    OnFire => ["On fire: the next win counts double", "连胜中：下一胜双倍计分", "Đang thắng liền: ván thắng sau tính gấp đôi"],
    /// A member who withdrew or paused.
    NotPlaying => ["not playing", "未在比赛", "không thi đấu"],
    /// The latest results.
    LatestResults => ["Latest results", "最新结果", "Kết quả mới nhất"],
    /// No game going.
    NoGamesGoing => ["No game going.", "暂无对局。", "Chưa có ván nào."],
    /// The reader's game is ready.
    YourGameReady => ["Your game is ready:", "你的对局已就绪：", "Ván của bạn đã sẵn sàng:"],
    /// The link to it.
    PlayYourGame => ["play it", "进入对局", "vào chơi"],
    /// Watch a game.
    WatchGame => ["Watch", "观战", "Xem"],
    /// The short link's label.
    TournamentLink => ["Link to this tournament", "比赛链接", "Liên kết giải đấu"],
    /// The embed code's label.
    EmbedStandings => [
        "Live standings for your site (paste this code)",
        "在你的网站上显示实时排名（粘贴这段代码）",
        "Bảng xếp hạng trực tiếp cho trang của bạn (dán đoạn mã này)",
    ],
    /// Download the games.
    DownloadGames => ["Download the games", "下载全部对局", "Tải các ván đấu"],
    /// Download the TRF.
    DownloadTrf => ["Results for arbiters (FIDE TRF)", "裁判用成绩（FIDE TRF）", "Kết quả cho trọng tài (FIDE TRF)"],
    /// Open the tournament on Qi (from an embed).
    OpenOnQi => ["Open on Qi", "在棋中打开", "Mở trên Qi"],
    /// Back from a tournament's game to its page.
    BackToTournament => ["Back to the tournament", "返回比赛", "Về giải đấu"],
    /// A casual tournament.
    Casual => ["Casual", "不计分", "Không tính điểm"],
    /// A private tournament.
    PrivateTournament => ["Private", "私密", "Riêng tư"],
}

/// The text `words` in `lang`.
#[must_use]
pub fn say(lang: Lang, words: Words) -> &'static str {
    pick(lang, TABLE[words as usize])
}

/// Text from the server made safe to show: at most `max` characters, no control characters.
#[must_use]
pub fn shown_text(text: &str, max: usize) -> String {
    text.chars().filter(|c| !c.is_control()).take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_keep_their_placeholders_in_every_language() {
        for (words, names) in [
            (Words::Reconnecting, &["s"][..]),
            (Words::NoServerYet, &["s"]),
            (Words::Seeking, &["game"]),
            (Words::WatchersCount, &["n"]),
            (Words::DrawOfferedBy, &["side"]),
            (Words::TakebackOfferedBy, &["side"]),
            (Words::PlaysSide, &["side"]),
            (Words::WaitingCount, &["n"]),
            (Words::YouPlay, &["side"]),
            (Words::WonByAbandonment, &["side"]),
            (Words::Won, &["side"]),
            (Words::ServerSays, &["detail"]),
            (Words::SignedInAs, &["name"]),
            (Words::ProfileSince, &["date"]),
            (Words::RatedGamesCount, &["n"]),
            (Words::RatingGraphLabel, &["game", "from", "to", "n"]),
            (Words::RatingGraphLabelOne, &["game", "from", "to"]),
            (Words::PlayersCount, &["n"]),
            (Words::StartsAt, &["time"]),
            (Words::EndsAt, &["time"]),
            (Words::RoundOf, &["r", "n"]),
        ] {
            for lang in Lang::ALL {
                for name in names {
                    assert!(
                        say(lang, words).contains(&format!("{{{name}}}")),
                        "{words:?} {lang:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_server_message_speaks_to_players_not_developers() {
        for lang in Lang::ALL {
            let words = say(lang, Words::NeedsServer);
            assert!(!words.contains("scripts/") && !words.contains("Qi server"), "{words}");
        }
    }
}
