// The "Try it" console of the documentation site, inlined into the page by the build
// (src/try-it.mjs), with the operations' data beside it (#try-it-data). It adds a "Try it" button
// to each operation Redoc renders; the button opens a form prefilled from the spec's examples
// (path, query and header parameters, a choice among the body's named examples), a target (the
// mock, the reference server, the spec's servers or any base URL), a bearer token kept for this
// tab only (sessionStorage), a Send button, the answer (status, headers, body) and the curl line
// of the request. Nothing is fetched until a console is opened: the page still renders offline.
//
// The token goes only where the page says. The targets it lists come from its own server
// (try-it/targets.json) and from the spec's `servers`; a base URL a link passes (?mock=URL,
// ?server=URL) or the reader types is shown as "Custom: URL", never under a listed name, and the
// token is sent to an origin the page did not list (or over plain http to another machine) only
// once the reader has confirmed that origin, a choice kept for the tab (sessionStorage).
(function tryItConsole() {
  'use strict';
  var data = JSON.parse(document.getElementById('try-it-data').textContent);
  // Redoc 3 gives each operation's section the id `<tag>/<operationId in lower case>`.
  var byId = new Map(data.operations.map(function (op) { return [op.id.toLowerCase(), op]; }));
  var TOKEN_KEY = 'cloudapi.tryIt.token';
  var TARGET_KEY = 'cloudapi.tryIt.target';
  var TRUSTED_KEY = 'cloudapi.tryIt.trustedOrigins';
  var targetsLoading = null;

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      if (name === 'text') node.textContent = attributes[name];
      else node.setAttribute(name, attributes[name]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  function stored(storage, key) {
    try { return window[storage].getItem(key) || ''; } catch (error) { return ''; }
  }
  function store(storage, key, value) {
    try { if (value) window[storage].setItem(key, value); else window[storage].removeItem(key); } catch (error) { /* storage refused: keep it in the form only */ }
  }

  /** The URL when `text` is an absolute http(s) URL, else null. */
  function httpUrl(text) {
    try {
      var url = new URL(text);
      return /^https?:$/.test(url.protocol) ? url : null;
    } catch (error) { return null; }
  }

  /** Whether a host name is this machine (0.0.0.0 and [::] reach it too: `HOST=0.0.0.0` URLs). */
  function isLoopback(hostname) {
    return hostname === 'localhost' || /\.localhost$/.test(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || ['[::1]', '0.0.0.0', '[::]'].indexOf(hostname) >= 0;
  }

  // The targets this page lists: where the docs server says `npm start` started the mock and the
  // server (try-it/targets.json, same origin as the page), else npm start's default ports; then
  // the spec's servers. Nothing in the page's address changes them.
  function loadTargets() {
    if (targetsLoading) return targetsLoading;
    var defaults = [
      { name: 'Mock', url: 'http://127.0.0.1:4010' + data.basePath },
      { name: 'Reference server', url: 'http://127.0.0.1:4020' + data.basePath },
    ];
    targetsLoading = fetch('try-it/targets.json', { cache: 'no-store' })
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; })
      .then(function (config) {
        var served = (config && Array.isArray(config.targets) ? config.targets : []).filter(function (target) {
          return target && typeof target.name === 'string' && typeof target.url === 'string' && httpUrl(target.url);
        });
        return (served.length ? served : defaults).concat(data.servers);
      });
    return targetsLoading;
  }

  // Base URLs a link passes (?mock=URL, ?server=URL): offered as they are, under no listed name.
  function linkedBases() {
    var query = new URLSearchParams(location.search);
    return ['mock', 'server'].map(function (key) { return query.get(key); }).filter(function (value) {
      return value && httpUrl(value);
    }).map(function (value) { return value.trim().replace(/\/+$/, ''); });
  }

  function trustedOrigins() {
    try { return JSON.parse(stored('sessionStorage', TRUSTED_KEY) || '[]'); } catch (error) { return []; }
  }
  function trustOrigin(origin) {
    var trusted = trustedOrigins();
    if (trusted.indexOf(origin) < 0) store('sessionStorage', TRUSTED_KEY, JSON.stringify(trusted.concat([origin])));
  }

  /**
   * What the reader must hear before the token goes to `url`, or null: an origin the page does not
   * list, or plain http to another machine, not yet confirmed in this tab.
   */
  function tokenWarning(url, targets) {
    var target = new URL(url);
    var listed = targets.some(function (t) { return new URL(t.url).origin === target.origin; });
    var plain = target.protocol === 'http:' && !isLoopback(target.hostname);
    if ((listed && !plain) || trustedOrigins().indexOf(target.origin) >= 0) return null;
    return { origin: target.origin, listed: listed, plain: plain };
  }

  /** Asks, in the answer's place, whether the token may go to the origin; `send` once it may. */
  function confirmToken(answer, warning, send) {
    var origin = warning.origin;
    var reasons = [];
    if (!warning.listed) reasons.push('This page does not list ' + origin + ' as a target: it came from a link or was typed. Sending gives your bearer token to whoever runs it; send it only to a server you trust.');
    if (warning.plain) reasons.push(origin + ' is plain http on another machine: the token would cross the network unencrypted, readable on the way.');
    var yes = element('button', { type: 'button', class: 'try-it-trust', text: 'Send my token to ' + origin });
    var no = element('button', { type: 'button', class: 'try-it-cancel', text: 'Cancel' });
    answer.textContent = '';
    answer.appendChild(element('div', { class: 'try-it-confirm', role: 'alertdialog', 'aria-label': 'Send the token to ' + origin + '?', 'data-origin': origin },
      reasons.map(function (text) { return element('p', { text: text }); }).concat([element('div', { class: 'try-it-actions' }, [yes, no])])));
    yes.addEventListener('click', function () { trustOrigin(origin); send(); });
    no.addEventListener('click', function () {
      answer.textContent = '';
      answer.appendChild(element('p', { class: 'try-it-note', text: 'Not sent: your token stays in this page.' }));
    });
    no.focus();
  }

  function shellQuote(text) {
    return "'" + String(text).replace(/'/g, "'\\''") + "'";
  }

  /** The request the form describes: { url, init, curl } or { error } naming the field. */
  function requestOf(op, form) {
    var base = form.base.value.trim().replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/.test(base)) return { error: 'The base URL must start with http:// or https://, e.g. http://127.0.0.1:4010' + data.basePath + '.' };
    var path = op.path;
    var query = new URLSearchParams();
    var headers = {};
    for (var i = 0; i < op.parameters.length; i++) {
      var parameter = op.parameters[i];
      var value = form.parameters[i].value;
      if (value === '') {
        if (parameter.required) return { error: 'The ' + parameter.in + ' parameter ' + parameter.name + ' is required.' };
        continue;
      }
      if (parameter.in === 'path') path = path.split('{' + parameter.name + '}').join(encodeURIComponent(value));
      else if (parameter.in === 'query') query.append(parameter.name, value);
      else headers[parameter.name] = value;
    }
    var token = form.token ? form.token.value.trim() : '';
    if (token) headers.Authorization = 'Bearer ' + token;
    var init = { method: op.method, headers: headers };
    if (op.body && !op.body.unsupported && form.body.value.trim() !== '') {
      try { JSON.parse(form.body.value); } catch (error) { return { error: 'The body is not valid JSON: ' + error.message }; }
      headers['Content-Type'] = op.body.mediaType;
      init.body = form.body.value;
    }
    var search = query.toString();
    var url = base + path + (search ? '?' + search : '');
    var curl = ['curl' + (op.method === 'GET' ? '' : ' -X ' + op.method) + ' ' + shellQuote(url)];
    Object.keys(headers).forEach(function (name) {
      curl.push(name === 'Authorization' ? '-H "Authorization: Bearer $CLOUDAPI_TOKEN"' : '-H ' + shellQuote(name + ': ' + headers[name]));
    });
    if (init.body) curl.push('--data ' + shellQuote(JSON.stringify(JSON.parse(init.body))));
    return { url: url, init: init, curl: curl.join(' ') };
  }

  function field(label, control) {
    return element('label', { class: 'try-it-field' }, [element('span', { text: label }), control]);
  }

  /**
   * The target and base URL fields: the listed targets by name, a link's base URLs as "Custom:",
   * "Other base URL…" for any other; the choice follows what is in the base URL field, so a
   * listed name never stands beside another address. `form.targets` holds the listed targets once
   * they are known.
   */
  function targetFields(panel, form, update) {
    form.target = element('select', { 'aria-label': 'Target' });
    form.base = element('input', { type: 'url', 'aria-label': 'Base URL', spellcheck: 'false' });
    form.note = element('p', { class: 'try-it-note try-it-target-note' });
    panel.appendChild(field('Target', form.target));
    panel.appendChild(field('Base URL', form.base));
    panel.appendChild(form.note);
    form.targets = [];
    function follow() {
      var base = form.base.value.trim().replace(/\/+$/, '');
      var match = Array.prototype.find.call(form.target.options, function (option) { return option.value && option.value === base; });
      form.target.value = match ? match.value : '';
    }
    loadTargets().then(function (targets) {
      form.targets = targets;
      targets.forEach(function (target) { form.target.appendChild(element('option', { value: target.url, text: target.name + ' (' + target.url + ')' })); });
      var linked = linkedBases();
      linked.filter(function (url) { return !targets.some(function (t) { return t.url === url; }); }).forEach(function (url) {
        form.target.appendChild(element('option', { value: url, text: 'Custom: ' + url + ' (from the link)' }));
      });
      form.target.appendChild(element('option', { value: '', text: 'Other base URL…' }));
      form.base.value = linked[0] || stored('sessionStorage', TARGET_KEY) || targets[0].url;
      follow();
      update();
    });
    form.target.addEventListener('change', function () {
      if (form.target.value) form.base.value = form.target.value;
      store('sessionStorage', TARGET_KEY, form.base.value);
      update();
      if (!form.target.value) form.base.focus();
    });
    form.base.addEventListener('input', function () {
      store('sessionStorage', TARGET_KEY, form.base.value.trim());
      follow();
    });
  }

  /** Says under the base URL whether this page lists its origin, and what happens to the token if not. */
  function describeTarget(form) {
    var url = httpUrl(form.base.value.trim());
    var warning = url && form.token ? tokenWarning(url.href, form.targets) : null;
    form.note.textContent = !warning ? '' : (warning.listed ? '' : 'A base URL this page does not list. ')
      + 'Your token is sent to ' + warning.origin + ' only once you confirm it.';
  }

  function buildPanel(op) {
    var panel = element('div', { class: 'try-it-panel', 'data-operation': op.id });
    var form = { parameters: [] };

    targetFields(panel, form, update);

    if (op.auth !== 'none') {
      form.token = element('input', { type: 'password', autocomplete: 'off', 'aria-label': 'Bearer token', placeholder: op.auth === 'optional' ? 'optional' : 'required' });
      form.token.value = stored('sessionStorage', TOKEN_KEY);
      form.token.addEventListener('input', function () { store('sessionStorage', TOKEN_KEY, form.token.value.trim()); });
      panel.appendChild(field('Bearer token (kept for this tab only)', form.token));
    }

    op.parameters.forEach(function (parameter) {
      var input = element('input', { type: 'text', spellcheck: 'false', 'aria-label': parameter.in + ' ' + parameter.name, 'data-parameter': parameter.in + ':' + parameter.name });
      input.value = parameter.value;
      form.parameters.push(input);
      panel.appendChild(field(parameter.in + ' ' + parameter.name + (parameter.required ? ' *' : ''), input));
    });

    if (op.body && op.body.unsupported) {
      panel.appendChild(element('p', { class: 'try-it-note', text: 'This console sends JSON bodies only; use the curl sample for ' + op.body.mediaType + '.' }));
    } else if (op.body) {
      form.example = element('select', { 'aria-label': 'Example' });
      op.body.examples.forEach(function (example, i) { form.example.appendChild(element('option', { value: String(i), text: example.summary })); });
      form.body = element('textarea', { rows: '10', spellcheck: 'false', 'aria-label': 'Request body' });
      form.body.value = op.body.examples[0].text;
      form.example.addEventListener('change', function () { form.body.value = op.body.examples[Number(form.example.value)].text; update(); });
      if (op.body.examples.length > 1) panel.appendChild(field('Example', form.example));
      panel.appendChild(field('Body (' + op.body.mediaType + ')', form.body));
    }

    var send = element('button', { type: 'button', class: 'try-it-send', text: 'Send' });
    var curl = element('code', { class: 'try-it-curl' });
    var copy = element('button', { type: 'button', class: 'try-it-copy', text: 'Copy curl' });
    var answer = element('div', { class: 'try-it-answer', 'aria-live': 'polite' });
    panel.appendChild(element('div', { class: 'try-it-actions' }, [send]));
    panel.appendChild(element('div', { class: 'try-it-curl-line' }, [curl, copy]));
    panel.appendChild(answer);

    function update() {
      var request = requestOf(op, form);
      curl.textContent = request.error ? '' : request.curl;
      describeTarget(form);
    }
    panel.addEventListener('input', update);

    copy.addEventListener('click', function () {
      var text = curl.textContent;
      var done = function () { copy.textContent = 'Copied'; setTimeout(function () { copy.textContent = 'Copy curl'; }, 1500); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () {});
      else {
        var range = document.createRange();
        range.selectNodeContents(curl);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        if (document.execCommand('copy')) done();
      }
    });

    send.addEventListener('click', function () {
      var request = requestOf(op, form);
      answer.textContent = '';
      if (request.error) {
        answer.appendChild(element('p', { class: 'try-it-error', text: request.error }));
        return;
      }
      curl.textContent = request.curl;
      var warning = request.init.headers.Authorization ? tokenWarning(request.url, form.targets) : null;
      var go = function () { deliver(request, answer, send); describeTarget(form); };
      if (warning) confirmToken(answer, warning, go);
      else go();
    });
    return panel;
  }

  /** Sends the request and shows the answer (status, headers, body), or why it did not arrive. */
  function deliver(request, answer, send) {
    send.disabled = true;
    answer.textContent = '';
    answer.appendChild(element('p', { class: 'try-it-pending', text: 'Sending…' }));
    fetch(request.url, request.init).then(function (response) {
      return response.text().then(function (text) { return { response: response, text: text }; });
    }).then(function (result) {
      var response = result.response;
      var body = result.text;
      if (/json/.test(response.headers.get('content-type') || '')) {
        try { body = JSON.stringify(JSON.parse(body), null, 2); } catch (error) { /* shown as it came */ }
      }
      var headerLines = [];
      response.headers.forEach(function (value, name) { headerLines.push(name + ': ' + value); });
      answer.textContent = '';
      answer.appendChild(element('p', { class: 'try-it-status', 'data-status': String(response.status), text: response.status + ' ' + response.statusText }));
      answer.appendChild(element('details', { class: 'try-it-headers' }, [element('summary', { text: 'Headers' }), element('pre', { text: headerLines.join('\n') })]));
      answer.appendChild(element('pre', { class: 'try-it-body', text: body || '(no body)' }));
    }, function (error) {
      answer.textContent = '';
      answer.appendChild(element('p', { class: 'try-it-error', text: 'The request did not reach ' + request.url + ' (' + error.message + '). Is the target running, and does it trust this page\'s origin (' + location.origin + ')? Start it with --cors-origin ' + location.origin + ' or CORS_ORIGINS.' }));
    }).then(function () { send.disabled = false; });
  }

  // The button (and the form it opens) go below the operation's heading row, in the middle column.
  function addButton(section, op) {
    var heading = section.querySelector('h2');
    if (!heading || section.querySelector('.try-it')) return;
    var middle = section.querySelector('[data-testid="middle-panel"]');
    var row = middle && middle.firstElementChild && middle.firstElementChild.contains(heading) ? middle.firstElementChild : heading;
    var button = element('button', { type: 'button', class: 'try-it-toggle', 'aria-expanded': 'false', 'data-operation': op.id, text: 'Try it' });
    var host = element('div', { class: 'try-it' }, [button]);
    var panel = null;
    button.addEventListener('click', function () {
      panel = panel || buildPanel(op);
      var open = button.getAttribute('aria-expanded') !== 'true';
      button.setAttribute('aria-expanded', String(open));
      if (open) host.appendChild(panel); else panel.remove();
    });
    row.after(host);
  }

  // Redoc renders (and re-renders) operations as the reader moves: each new section gets its button.
  var scheduled = false;
  function scan() {
    scheduled = false;
    document.querySelectorAll('[data-item-kind="httpItem"][id]').forEach(function (section) {
      var op = byId.get(section.id.slice(section.id.lastIndexOf('/') + 1));
      if (op) addButton(section, op);
    });
  }
  new MutationObserver(function () {
    if (!scheduled) { scheduled = true; requestAnimationFrame(scan); }
  }).observe(document.body, { childList: true, subtree: true });
  scan();
})();
