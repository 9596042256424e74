// The live client of `npm run dev`, added to the page by the docs server (src/live.mjs), never
// built into it. The server says over server-sent events when the spec changed; the page then
// fetches the new docs-only copy of the bundle (a fraction of the page) and renders it with
// Redoc's own `init` into a hidden element, and swaps it in once the part the reader was looking
// at is there: same operation (the address is Redoc's route), same place on it (the element at
// the top of the window stays where it was), the Try it forms open as they were
// (assets/try-it.js keeps what was typed). The lint findings the server sends show in a panel,
// written as text only: they quote the spec's files.
(function liveDocs() {
  'use strict';
  var settings = JSON.parse(document.getElementById('cloudapi-live').textContent);
  // What tests and benchmarks read: the version shown, renders done, whether the server is there.
  var status = window.cloudapiLive = { version: settings.version, renders: 0, connected: false };
  var announced = settings.version;
  var failed = null; // a version that could not be shown is not tried again
  var rendering = false;
  var lastRoot = null; // the React root of the last render (Redoc's first, hydrated one cannot be unmounted)
  var problems = { findings: [], bundle: null, render: settings.error || null };
  var dismissed = null;

  var redocReady = new Promise(function (resolve) {
    if (window.cloudapiRedoc) resolve(window.cloudapiRedoc);
    else window.addEventListener('cloudapi:redoc', function () { resolve(window.cloudapiRedoc); }, { once: true });
  });

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // ---- The reader's place ----------------------------------------------------------------------

  // What can be found again in the new version: the elements Redoc gives an id (the operation,
  // its parameters, responses and fields), and the Try it forms.
  var LANDMARKS = '[id], .try-it-panel[data-operation]';
  function selectorOf(node) {
    return node.id ? '[id="' + CSS.escape(node.id) + '"]' : '.try-it-panel[data-operation="' + CSS.escape(node.getAttribute('data-operation')) + '"]';
  }

  // The first landmark that starts in the window (else the last one that starts above it: the
  // reader is inside it), and where it is on the screen. A change above it, or inside a larger
  // landmark around it, leaves it where the reader saw it.
  function placeOf(container) {
    var below = null;
    var above = null;
    container.querySelectorAll(LANDMARKS).forEach(function (node) {
      if (node.id === 'api-content' || node instanceof SVGElement) return;
      var box = node.getBoundingClientRect();
      if (box.height === 0 || box.bottom <= 0 || box.top >= window.innerHeight) return;
      var found = { selector: selectorOf(node), top: box.top };
      if (box.top >= 0) { if (!below || box.top < below.top) below = found; } else if (!above || box.top > above.top) above = found;
    });
    var best = below || above;
    var section = container.querySelector('[data-item-kind][id]');
    return { anchor: best, section: section && selectorOf(section), scrollY: window.scrollY };
  }

  function afterFrames(count, then) {
    requestAnimationFrame(function () { if (count > 1) afterFrames(count - 1, then); else then(); });
  }

  function restorePlace(container, place) {
    var anchor = place.anchor && container.querySelector(place.anchor.selector);
    if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - place.anchor.top);
    else window.scrollTo(0, place.scrollY);
  }

  // Resolves once `container` shows what the reader was looking at (or, when the change removed
  // it, once Redoc has rendered anything for a moment); rejects with Redoc's own error, or when
  // Redoc rendered nothing within RENDER_LIMIT_MS.
  var RENDER_LIMIT_MS = 30000;
  function rendered(container, place) {
    return new Promise(function (resolve, reject) {
      var started = Date.now();
      var sinceContent = null;
      var observer = new MutationObserver(check);
      var timer = setInterval(check, 100);
      function done(error) {
        observer.disconnect();
        clearInterval(timer);
        if (error) reject(error); else resolve();
      }
      function check() {
        var alert = container.querySelector('[role="alert"]');
        if (alert && /Failed to load/.test(alert.textContent)) return done(new Error(alert.textContent));
        if (!container.querySelector('h1, h2')) {
          if (Date.now() - started > RENDER_LIMIT_MS) done(new Error('Redoc rendered nothing within ' + RENDER_LIMIT_MS / 1000 + ' s'));
          return;
        }
        // (a Try it form is opened again after the swap: its operation's section is enough)
        var wanted = place.anchor && place.anchor.selector.charAt(0) === '[' ? place.anchor.selector : place.section;
        if (!wanted || container.querySelector(wanted)) return done();
        sinceContent = sinceContent || Date.now();
        if (Date.now() - sinceContent > 1500) done();
      }
      observer.observe(container, { childList: true, subtree: true });
    });
  }

  // ---- Rendering a new version -----------------------------------------------------------------

  // Redoc scrolls the page when it mounts (its route's element into view, found by id: the page's
  // one while the new version renders; the top of the page without a route; a lazy section above
  // the window made up for) and keeps the route's element in view while the page grows, until the
  // reader scrolls or types: right for a navigation, wrong for a re-render under the reader's
  // eyes. While a version renders hidden, no scrolling happens; once it is swapped in, Redoc is
  // told the reader took over (it listens for wheel, touchmove, keydown and mousedown).
  var renderingInto = null;
  var elementScrollIntoView = Element.prototype.scrollIntoView;
  Element.prototype.scrollIntoView = function () {
    if (renderingInto) return undefined;
    return elementScrollIntoView.apply(this, arguments);
  };
  ['scrollTo', 'scrollBy', 'scroll'].forEach(function (name) {
    var original = window[name];
    window[name] = function () {
      if (renderingInto) return undefined;
      return original.apply(window, arguments);
    };
  });

  function render(docs) {
    return redocReady.then(function (redoc) {
      var old = document.getElementById('redoc');
      var place = placeOf(old);
      document.dispatchEvent(new CustomEvent('cloudapi:live-update', { detail: { tryIt: docs.tryIt } }));
      // Redoc reads options from its element's attributes: it gets a bare one, in a hidden holder
      // laid over the page, so that it mounts the same parts (those near the window) as the page.
      var holder = element('div', 'cloudapi-live-rendering');
      holder.setAttribute('aria-hidden', 'true');
      var next = document.createElement('div');
      holder.appendChild(next);
      old.parentNode.insertBefore(holder, old.nextSibling);
      renderingInto = holder;
      var root = redoc.init(docs.definition, redoc.options, next);
      next.className = 'cloudapi-live-settling'; // after init(), which has read the attributes
      return rendered(next, place).then(function () {
        renderingInto = null;
        old.replaceWith(next);
        holder.remove();
        next.id = 'redoc';
        if (lastRoot) lastRoot.unmount();
        lastRoot = root;
        document.dispatchEvent(new CustomEvent('cloudapi:live-updated', { detail: { tryIt: docs.tryIt } }));
        restorePlace(next, place);
        window.dispatchEvent(new Event('touchmove'));
        afterFrames(2, function () { next.removeAttribute('class'); });
      }, function (error) {
        renderingInto = null;
        root.unmount();
        holder.remove();
        throw error;
      });
    });
  }

  function update() {
    if (problems.render && settings.error) return;
    rendering = true;
    var wanted = announced;
    fetch(settings.docs, { cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) throw new Error('the docs server answered ' + response.status + ' for ' + settings.docs);
        return response.json();
      })
      .then(function (body) {
        return render(body.docs).then(function () {
          status.version = body.version;
          status.renders++;
          if (problems.render) { problems.render = null; showProblems(); }
        });
      })
      .catch(function (error) {
        failed = wanted;
        problems.render = 'The page could not show the change (' + error.message + '); it shows the spec as it was. Reload to try again.';
        showProblems();
      })
      .then(function () {
        rendering = false;
        if (announced !== status.version && announced !== failed) update();
      });
  }

  function announce(version) {
    announced = version;
    if (!rendering && announced !== status.version && announced !== failed) update();
  }

  // ---- The problems panel ----------------------------------------------------------------------

  function findingItem(finding) {
    var item = element('li');
    var where = finding.file + (finding.line ? ':' + finding.line + (finding.column ? ':' + finding.column : '') : '');
    item.appendChild(element('code', 'cloudapi-live-where', where));
    item.appendChild(element('span', 'cloudapi-live-severity cloudapi-live-' + finding.severity, finding.severity));
    item.appendChild(element('span', 'cloudapi-live-rule', finding.rule));
    if (finding.whole) item.appendChild(element('span', 'cloudapi-live-note', '(whole-spec lint)'));
    item.appendChild(element('div', 'cloudapi-live-message', finding.message));
    return item;
  }

  function showProblems() {
    var panel = document.querySelector('[data-live-overlay]');
    var findings = problems.findings || [];
    var signature = JSON.stringify(problems);
    if (!findings.length && !problems.bundle && !problems.render) {
      if (panel) panel.remove();
      return;
    }
    if (signature === dismissed) return;
    if (panel) panel.remove();
    panel = element('aside', 'cloudapi-live-overlay');
    panel.setAttribute('data-live-overlay', '');
    panel.setAttribute('role', 'alert');
    var heading = element('div', 'cloudapi-live-heading');
    var count = findings.length ? findings.length + (findings.length === 1 ? ' problem' : ' problems') + ' in the spec' : 'The spec';
    heading.appendChild(element('strong', null, count));
    heading.appendChild(element('span', 'cloudapi-live-note', 'npm run dev'));
    var hide = element('button', 'cloudapi-live-hide', '×');
    hide.type = 'button';
    hide.setAttribute('aria-label', 'Hide until the next change');
    hide.addEventListener('click', function () { dismissed = signature; panel.remove(); });
    heading.appendChild(hide);
    panel.appendChild(heading);
    if (problems.render) panel.appendChild(element('p', 'cloudapi-live-failure', problems.render));
    if (problems.bundle) panel.appendChild(element('p', 'cloudapi-live-failure', 'The spec does not bundle; the page shows the last spec that did:\n' + problems.bundle));
    var list = element('ul');
    findings.forEach(function (finding) { list.appendChild(findingItem(finding)); });
    if (findings.length) panel.appendChild(list);
    document.body.appendChild(panel);
  }

  // ---- The channel -----------------------------------------------------------------------------

  if (problems.render) showProblems();
  var source = new EventSource(settings.events);
  source.addEventListener('open', function () { status.connected = true; });
  source.addEventListener('error', function () { status.connected = false; });
  source.addEventListener('docs', function (event) { announce(JSON.parse(event.data).version); });
  source.addEventListener('problems', function (event) {
    var data = JSON.parse(event.data);
    problems.findings = Array.isArray(data.findings) ? data.findings : [];
    problems.bundle = typeof data.bundle === 'string' ? data.bundle : null;
    showProblems();
  });
})();
