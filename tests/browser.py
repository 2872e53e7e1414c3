"""One headless Chromium for many pages, driven over the DevTools protocol.

Chromium's start is most of what a page check costs (seconds on a loaded
machine, against a fraction of a second for a page), so one browser loads
every page of a run: each page in a fresh tab, which is closed after. The
protocol goes through a pair of pipes (--remote-debugging-pipe: commands on
the browser's fd 3, answers and events on its fd 4, each message JSON ended
by a NUL byte), so nothing listens on a port and nothing but the standard
library is needed.

    with Browser(path, flags, profile_dir) as b:
        dom, png = b.load('file:///tmp/page.html', 1200, 1600)

`dom` is the document as the browser built it (what --dump-dom prints),
`png` the viewport's screenshot at that size (what --screenshot writes).
"""

import base64
import fcntl
import json
import os
import subprocess
import time


class BrowserError(Exception):
    """The browser did not answer as the protocol says, or not in time."""


class Browser:
    def __init__(self, path, flags, profile_dir, timeout=120):
        self.timeout = timeout
        self._next_id = 0
        self._buf = b''
        self._events = []
        cmd_r, self._cmd_w = os.pipe()
        self._resp_r, resp_w = os.pipe()

        def child_fds():
            # fd 3 reads the commands, fd 4 writes the answers; moved up
            # first so that neither is overwritten by the other's dup2.
            hi_r = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
            hi_w = fcntl.fcntl(resp_w, fcntl.F_DUPFD, 10)
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            [path] + flags + ['--remote-debugging-pipe', '--user-data-dir=' + profile_dir,
                              'about:blank'],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child_fds, pass_fds=(3, 4))
        os.close(cmd_r)
        os.close(resp_w)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send('Browser.close', {})
            except (BrowserError, OSError):
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._cmd_w, self._resp_r):
            try:
                os.close(fd)
            except OSError:
                pass

    def _send(self, method, params, session=None):
        self._next_id += 1
        msg = {'id': self._next_id, 'method': method, 'params': params}
        if session:
            msg['sessionId'] = session
        os.write(self._cmd_w, json.dumps(msg).encode() + b'\0')
        return self._next_id

    def _read_message(self, deadline):
        while b'\0' not in self._buf:
            if time.monotonic() > deadline:
                raise BrowserError('no answer from the browser within %d s' % self.timeout)
            chunk = os.read(self._resp_r, 1 << 16)
            if not chunk:
                raise BrowserError('the browser closed its end (exit %r)' % self.proc.poll())
            self._buf += chunk
        raw, self._buf = self._buf.split(b'\0', 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None):
        """The result of one command; events that arrive meanwhile are kept."""
        want = self._send(method, params or {}, session)
        deadline = time.monotonic() + self.timeout
        while True:
            msg = self._read_message(deadline)
            if msg.get('id') == want:
                if 'error' in msg:
                    raise BrowserError('%s: %s' % (method, msg['error']))
                return msg.get('result', {})
            if 'method' in msg:
                self._events.append(msg)

    def wait_event(self, method, session):
        deadline = time.monotonic() + self.timeout
        while True:
            for i, e in enumerate(self._events):
                if e['method'] == method and e.get('sessionId') == session:
                    del self._events[i]
                    return e
            self._events.append(self._read_message(deadline))

    def evaluate(self, url, width, height, expression):
        """The value of a JavaScript expression on `url` in a fresh tab of `width` x `height`."""
        target = self.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        session = self.call('Target.attachToTarget',
                            {'targetId': target, 'flatten': True})['sessionId']
        try:
            self.call('Emulation.setDeviceMetricsOverride',
                      {'width': width, 'height': height, 'deviceScaleFactor': 1,
                       'mobile': width < 600}, session)
            self.call('Page.enable', {}, session)
            nav = self.call('Page.navigate', {'url': url}, session)
            if nav.get('errorText'):
                raise BrowserError('cannot load %s: %s' % (url, nav['errorText']))
            self.wait_event('Page.loadEventFired', session)
            res = self.call('Runtime.evaluate', {'expression': expression,
                                                 'returnByValue': True}, session)
            return res['result'].get('value')
        finally:
            self.call('Target.closeTarget', {'targetId': target})
            self._events = [e for e in self._events if e.get('sessionId') != session]

    def load(self, url, width, height):
        """(DOM, PNG bytes) of `url` in a fresh tab of `width` x `height`."""
        target = self.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        session = self.call('Target.attachToTarget',
                            {'targetId': target, 'flatten': True})['sessionId']
        try:
            self.call('Emulation.setDeviceMetricsOverride',
                      {'width': width, 'height': height, 'deviceScaleFactor': 1,
                       'mobile': False}, session)
            self.call('Page.enable', {}, session)
            nav = self.call('Page.navigate', {'url': url}, session)
            if nav.get('errorText'):
                raise BrowserError('cannot load %s: %s' % (url, nav['errorText']))
            self.wait_event('Page.loadEventFired', session)
            dom = self.call('Runtime.evaluate',
                            {'expression': 'document.documentElement.outerHTML',
                             'returnByValue': True}, session)['result'].get('value', '')
            shot = self.call('Page.captureScreenshot', {'format': 'png'}, session)
            return dom, base64.b64decode(shot['data'])
        finally:
            self.call('Target.closeTarget', {'targetId': target})
            self._events = [e for e in self._events if e.get('sessionId') != session]
