// The "Try it" console of the documentation site, inlined into the page by the build
// (src/try-it.mjs), with the operations' data beside it (#try-it-data). It adds a "Try it" button
// to each operation Redoc renders; the button opens a form prefilled from the spec's examples
// (path, query and header parameters, a choice among the body's named examples), a target (the
// mock, the reference server or any base URL), a bearer token kept for this tab only
// (sessionStorage), a Send button, the answer (status, headers, body) and the curl line of the
// request. Nothing is fetched until a console is opened: the page still renders offline.
(function tryItConsole() {
  'use strict';
  var data = JSON.parse(document.getElementById('try-it-data').textContent);
  // Redoc 3 gives each operation's section the id `<tag>/<operationId in lower case>`.
  var byId = operationsById(data);
  var TOKEN_KEY = 'cloudapi.tryIt.token';
  var TARGET_KEY = 'cloudapi.tryIt.target';
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

  // The mock and the reference server as `npm start` serves them: the docs server says where
  // (try-it/targets.json); ?mock=URL&server=URL override it; the defaults are npm start's ports.
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
        var targets = config && Array.isArray(config.targets) && config.targets.length ? config.targets : defaults;
        var query = new URLSearchParams(location.search);
        return targets.map(function (target) {
          var key = /mock/i.test(target.name) ? 'mock' : /server/i.test(target.name) ? 'server' : null;
          return key && query.get(key) ? { name: target.name, url: query.get(key) } : target;
        });
      });
    return targetsLoading;
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

  function buildPanel(op) {
    var panel = element('div', { class: 'try-it-panel', 'data-operation': op.id });
    var form = { parameters: [] };

    form.target = element('select', { 'aria-label': 'Target' });
    form.base = element('input', { type: 'url', 'aria-label': 'Base URL', spellcheck: 'false' });
    panel.appendChild(field('Target', form.target));
    panel.appendChild(field('Base URL', form.base));
    loadTargets().then(function (targets) {
      targets.forEach(function (target) { form.target.appendChild(element('option', { value: target.url, text: target.name + ' (' + target.url + ')' })); });
      form.target.appendChild(element('option', { value: '', text: 'Other base URL…' }));
      var remembered = stored('sessionStorage', TARGET_KEY);
      form.base.value = remembered || targets[0].url;
      form.target.value = targets.some(function (t) { return t.url === form.base.value; }) ? form.base.value : '';
      update();
    });
    form.target.addEventListener('change', function () {
      if (form.target.value) form.base.value = form.target.value;
      store('sessionStorage', TARGET_KEY, form.base.value);
      update();
      if (!form.target.value) form.base.focus();
    });
    form.base.addEventListener('input', function () { store('sessionStorage', TARGET_KEY, form.base.value.trim()); });

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
      send.disabled = true;
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
    });
    return panel;
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

  // ---- Live docs (`npm run dev`, assets/live.js) ----------------------------------------------
  // The page renders a changed spec in place. Before, the console takes the new operations' data
  // and notes the forms that are open; after, it opens them again on the new page with what was
  // typed in them, the last answer, and the field that had the focus.

  function operationsById(source) {
    return new Map(source.operations.map(function (op) { return [op.id.toLowerCase(), op]; }));
  }

  function openForms() {
    var forms = [];
    document.querySelectorAll('.try-it-toggle[aria-expanded="true"]').forEach(function (button) {
      var panel = button.parentNode.querySelector('.try-it-panel');
      if (!panel) return;
      var values = {};
      panel.querySelectorAll('input, select, textarea').forEach(function (control) { values[control.getAttribute('aria-label')] = control.value; });
      var focused = panel.contains(document.activeElement) ? document.activeElement : null;
      var selection = null;
      try { selection = focused && typeof focused.selectionStart === 'number' ? [focused.selectionStart, focused.selectionEnd] : null; } catch (error) { /* no selection in this control */ }
      forms.push({ id: button.getAttribute('data-operation'), values: values, answer: panel.querySelector('.try-it-answer'), focus: focused && focused.getAttribute('aria-label'), selection: selection });
    });
    return forms;
  }

  function reopenForm(form) {
    var button = document.querySelector('.try-it-toggle[data-operation="' + CSS.escape(form.id) + '"]');
    if (!button) return; // the change removed the operation
    if (button.getAttribute('aria-expanded') !== 'true') button.click();
    var panel = button.parentNode.querySelector('.try-it-panel');
    var answer = panel.querySelector('.try-it-answer');
    while (form.answer && form.answer.firstChild) answer.appendChild(form.answer.firstChild);
    // After the panel's own set-up of its targets: then what was typed wins.
    loadTargets().then(function () {
      panel.querySelectorAll('input, select, textarea').forEach(function (control) {
        var label = control.getAttribute('aria-label');
        if (Object.prototype.hasOwnProperty.call(form.values, label)) control.value = form.values[label];
        if (label === form.focus) {
          control.focus({ preventScroll: true });
          if (form.selection) try { control.setSelectionRange(form.selection[0], form.selection[1]); } catch (error) { /* no selection in this control */ }
        }
      });
      panel.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }

  var reopening = [];
  document.addEventListener('cloudapi:live-update', function (event) {
    reopening = openForms();
    data = event.detail.tryIt;
    byId = operationsById(data);
  });
  document.addEventListener('cloudapi:live-updated', function () {
    scan();
    reopening.forEach(reopenForm);
    reopening = [];
  });

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
