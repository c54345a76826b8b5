"""The school's own logins for the hub: LTI 1.3 from the school's learning platform (Moodle, Canvas, ...), chosen by
deploy/jupyterhub_config.py when HUB_AUTH=lti13 (see the admin's page, admin/hub, for the platform's side).

`SchoolLTIAuthenticator` is jupyterhub-ltiauthenticator's `LTI13Authenticator` (the platform's signed launch checked
against the platform's published keys, its issuer, audience, age and the browser's state and nonce) with what a class
needs on top:
- a launch logs in once: its nonce is kept until the launch's token expires, so the same launch sent again (even with
  the browser's cookies copied) is refused;
- the platform's roles say who teaches: an Instructor or Administrator of the course is put in the hub's `teachers`
  group (the teacher's page), anyone else is kept out of it (the authenticator manages the hub's groups).
"""
import threading, time
from ltiauthenticator.lti13.auth import LTI13Authenticator
from ltiauthenticator.lti13.error import LoginError
from traitlets import Unicode

ROLES = 'https://purl.imsglobal.org/spec/lti/claim/roles'
TEACHING = ('#Instructor', '#Administrator')  # the LIS roles (context or institution) of those who teach


def teaches(roles) -> bool:
    "Whether the platform's `roles` (a launch's roles claim) are a teacher's: Instructor or Administrator."
    return any(isinstance(r, str) and r.endswith(TEACHING) for r in (roles or ()))


class SchoolLTIAuthenticator(LTI13Authenticator):
    "LTI 1.3 logins from the school's platform: each launch used once; the platform's teachers in the hub's teachers group."
    teachers_group = Unicode('teachers', config=True, help="The hub group the platform's instructors are put in")

    def __init__(self, **kw):
        super().__init__(**kw)
        self.manage_groups = True
        self._used, self._lock = {}, threading.Lock()  # nonce: when its launch expires

    def _first_use(self, token:dict) -> bool:
        "Whether the launch `token` is used for the first time (its nonce then kept until it expires)."
        nonce, now = token.get('nonce'), time.time()
        with self._lock:
            for old in [n for n, until in self._used.items() if until < now]: del self._used[old]
            if not nonce or nonce in self._used: return False
            self._used[nonce] = max(float(token.get('exp') or 0), now + 900)
            return True

    async def authenticate(self, handler, data=None):
        if not self._first_use(data or {}):
            self.log.warning("Refused an LTI launch used before (the same nonce)")
            raise LoginError("This launch was used already: open the tool again from the school's platform")
        got = await super().authenticate(handler, data)
        got['groups'] = [self.teachers_group] if teaches((data or {}).get(ROLES)) else []
        return got
