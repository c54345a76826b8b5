"""The kernels of a student's own server (`deploy/jupyterhub_config.py` sets `--ServerApp.kernel_manager_class` to this):
at most `max_kernels` at once. Each tutor page a student opens (Voilà) runs in a kernel of its own, of about 100 MB;
a closed page's kernel is stopped after a while (`cull_idle_timeout`), so opening page after page cannot fill the
machine's memory. A page over the limit is refused in one line that says what to do."""
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer

class CappedKernelManager(AsyncMappingKernelManager):
    max_kernels = Integer(3, config=True, help="kernels (open tutor pages) a student's server runs at once")

    async def start_kernel(self, *args, kernel_id=None, **kwargs):
        if kernel_id is None and len(self.list_kernel_ids()) >= self.max_kernels:
            wait = int(self.cull_idle_timeout + self.cull_interval) if self.cull_idle_timeout else 0
            raise web.HTTPError(429, reason=f"At most {self.max_kernels} tutor pages at once: close one"
                                            + (f" (its game stops within {wait // 60 or 1} minutes)" if wait else '') + " and open this again")
        return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
