// The loading state, in the player's language and theme: shown until the wasm app starts
// (the app removes #qi-loading as it mounts; Trunk's TrunkApplicationStarted event is the
// backstop), or replaced by a message and a way to retry when the app cannot start. No
// inline handlers, no eval: the server's Content-Security-Policy allows this script by hash.
(function () {
  var WORDS = {
    en: {
      loading: 'Loading…',
      failed: 'Qi could not load.',
      hint: 'Check your connection, then try again.',
      retry: 'Try again',
      unsupported: 'This browser cannot run Qi: it needs WebAssembly.',
      update: 'A new version of Qi is ready.',
      reload: 'Reload',
    },
    zh: {
      loading: '正在加载…',
      failed: 'Qi 未能加载。',
      hint: '请检查网络连接，然后重试。',
      retry: '重试',
      unsupported: '此浏览器无法运行 Qi：需要 WebAssembly。',
      update: 'Qi 有新版本。',
      reload: '重新加载',
    },
    vi: {
      loading: 'Đang tải…',
      failed: 'Không tải được Qi.',
      hint: 'Hãy kiểm tra kết nối mạng rồi thử lại.',
      retry: 'Thử lại',
      unsupported: 'Trình duyệt này không chạy được Qi: cần có WebAssembly.',
      update: 'Đã có phiên bản Qi mới.',
      reload: 'Tải lại',
    },
  };
  var box = document.getElementById('qi-loading');
  if (!box) return;
  var text = box.querySelector('.qi-loading-text');
  var hint = box.querySelector('.qi-loading-hint');
  var retry = box.querySelector('.qi-loading-retry');

  function param(name) {
    var match = new RegExp('[?&]' + name + '=([^&#]*)').exec(location.search);
    if (!match) return '';
    try {
      return decodeURIComponent(match[1].replace(/\+/g, ' ')).replace(/^\s+|\s+$/g, '');
    } catch (e) {
      return '';
    }
  }
  // The language and theme the page will show: the app and the online page keep them in
  // their saved settings (data-prefs="settings"), the embed takes them from its address.
  var prefs = {};
  if (box.getAttribute('data-prefs') === 'settings') {
    try {
      // A newline made from its code: the release build's minifier turns the '\n' escape into
      // a backslash and an n.
      var lines = (window.localStorage.getItem('qi.settings') || '').split(String.fromCharCode(10));
      for (var i = 0; i < lines.length; i++) {
        var at = lines[i].indexOf('=');
        if (at > 0) prefs[lines[i].slice(0, at)] = lines[i].slice(at + 1);
      }
    } catch (e) {
      // Storage blocked: the defaults.
    }
  } else {
    prefs.theme = param('theme');
  }
  var asked = param('lang');
  var tag = /^(en|zh|vi|zh-CN)$/.test(asked) ? asked : prefs.lang || navigator.language || '';
  tag = tag.toLowerCase();
  var lang = tag.indexOf('zh') === 0 ? 'zh' : tag.indexOf('vi') === 0 ? 'vi' : 'en';
  var words = WORDS[lang];
  box.setAttribute('lang', lang === 'zh' ? 'zh-CN' : lang);
  box.setAttribute('data-lang', lang);
  if (prefs.theme === 'dark') box.className += ' qi-dark';
  text.textContent = words.loading;
  box.hidden = false;

  var started = false;
  var failed = false;
  function fail(unsupported) {
    if (started || failed) return;
    failed = true;
    box.className += ' qi-loading-failed';
    box.setAttribute('data-state', unsupported ? 'unsupported' : 'failed');
    text.setAttribute('role', 'alert');
    text.textContent = unsupported ? words.unsupported : words.failed;
    if (!unsupported) {
      hint.textContent = words.hint;
      hint.hidden = false;
      retry.textContent = words.retry;
      retry.hidden = false;
    }
    // Start-up may have failed after the app emptied <body>.
    if (!document.documentElement.contains(box)) document.body.appendChild(box);
    box.hidden = false;
  }
  retry.addEventListener('click', function () {
    location.reload();
  });
  // The app's script or wasm did not load, or its start-up threw; a stylesheet, icon or
  // preload that failed is not fatal by itself (the app's own request for it fails too).
  function onError(event) {
    var target = event.target;
    if (target && target !== window && target.nodeName !== 'SCRIPT') return;
    fail(false);
  }
  window.addEventListener('error', onError, true);
  window.addEventListener('unhandledrejection', function () {
    fail(false);
  });
  window.addEventListener('TrunkApplicationStarted', function () {
    started = true;
    if (box.parentNode) box.parentNode.removeChild(box);
    // Once the board is up (not competing with it for the network): keep this build for
    // offline play.
    keepOffline();
  });

  // The service worker (sw.js, at the build's root) keeps the whole build; a newer build
  // waits until the player accepts a reload, so a page never mixes two builds' files.
  var root = box.getAttribute('data-root') || '';
  function keepOffline() {
    if (!('serviceWorker' in navigator)) return;
    var workers = navigator.serviceWorker;
    var asked = false;
    workers.addEventListener('controllerchange', function () {
      if (asked) location.reload();
    });
    function offer(registration) {
      if (!registration.waiting || !workers.controller || document.getElementById('qi-update')) return;
      var bar = document.createElement('div');
      bar.id = 'qi-update';
      bar.className = 'qi-update' + (prefs.theme === 'dark' ? ' qi-dark' : '');
      bar.setAttribute('role', 'status');
      bar.setAttribute('lang', box.getAttribute('lang') || 'en');
      var said = document.createElement('span');
      said.textContent = words.update;
      var button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('data-action', 'update-reload');
      button.textContent = words.reload;
      button.addEventListener('click', function () {
        asked = true;
        if (registration.waiting) registration.waiting.postMessage('qi-update');
      });
      bar.appendChild(said);
      bar.appendChild(button);
      document.body.appendChild(bar);
    }
    workers
      .register(root + 'sw.js', { scope: root || './' })
      .then(function (registration) {
        offer(registration);
        registration.addEventListener('updatefound', function () {
          var installing = registration.installing;
          if (!installing) return;
          installing.addEventListener('statechange', function () {
            if (installing.state === 'installed') offer(registration);
          });
        });
      })
      .catch(function () {
        // No service worker (a file: page, a private window): the app works online as before.
      });
  }
  if (
    typeof WebAssembly !== 'object' ||
    typeof WebAssembly.instantiate !== 'function' ||
    !('noModule' in document.createElement('script'))
  ) {
    fail(true);
  }
})();
