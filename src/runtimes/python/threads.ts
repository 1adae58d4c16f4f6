// `_agentos_threads`: threading and concurrent.futures as far as one thread
// goes. Pyodide has no threads (start_new_thread fails), so
// - Thread.start() runs the thread's target to its end before returning, as
//   if the scheduler ran it first; current_thread() is that Thread while it
//   runs, its exception goes to threading.excepthook, is_alive() is False and
//   join() returns at once afterwards;
// - ThreadPoolExecutor runs each submitted call at submit(), so the future is
//   done when submit returns (map, as_completed, wait, asyncio.to_thread work);
// - a wait that no thread can ever end (acquiring a held Lock, Event.wait,
//   Condition.wait or Queue.get without a timeout) raises RuntimeError at once
//   instead of hanging: with one thread, nothing else could release it.
//   With a timeout it waits that long and fails as Python's would.
// What does not hold: threads never run concurrently (a target waiting for the
// thread that started it fails with that RuntimeError), threading.local is
// shared by all of them, and an RLock never blocks between them.

export const THREADS = String.raw`
import threading, itertools

_real_lock = threading._allocate_lock
_DEADLOCK = ('deadlock: this wait can never end (agentOS runs Python threads one after another on one thread, '
             'as Pyodide has no threads; nothing else can release it)')

class Lock:
    '''threading.Lock whose blocking acquire fails instead of waiting forever.'''
    __slots__ = ('_lock', '__weakref__')
    def __init__(self): self._lock = _real_lock()
    def acquire(self, blocking=True, timeout=-1):
        if self._lock.acquire(False): return True
        if not blocking: return False
        if timeout is None or timeout < 0: raise RuntimeError(_DEADLOCK)
        return self._lock.acquire(True, timeout)
    acquire_lock = acquire
    def release(self): self._lock.release()
    release_lock = release
    def locked(self): return self._lock.locked()
    def _at_fork_reinit(self): self._lock = _real_lock()
    def __enter__(self): return self.acquire()
    def __exit__(self, *a): self.release()
    def __repr__(self): return '<%s %s object at %#x>' % ('locked' if self.locked() else 'unlocked', '_thread.lock', id(self))

_idents = itertools.count(1 << 20)

def _start(self):
    if not self._initialized:
        raise RuntimeError('thread.__init__() not called')
    if self._started.is_set():
        raise RuntimeError('threads can only be started once')
    me = threading.get_ident()
    outer = threading._active.get(me)
    self._ident = next(_idents)
    threading._active[me] = self
    # A handle that is running until the target returns (is_alive, join), as the main thread's is.
    self._os_thread_handle = threading._make_thread_handle(self._ident)
    self._started.set()
    try:
        self.run()
    except SystemExit:
        pass
    except BaseException:
        self._invoke_excepthook(self)
    finally:
        if outer is None: threading._active.pop(me, None)
        else: threading._active[me] = outer
        self._os_thread_handle._set_done()

def patch_threading():
    threading.Lock = threading._allocate_lock = Lock
    threading.Thread.start = _start

def _adjust_thread_count(self):
    # Run what was submitted now, in this thread (no worker thread could), in one worker context per executor.
    import concurrent.futures.thread as cft
    ctx = self.__dict__.get('_agentos_ctx')
    if ctx is None:
        ctx = self._create_worker_context()
        try:
            ctx.initialize()
        except BaseException:
            cft._base.LOGGER.critical('Exception in initializer:', exc_info=True)
            self._initializer_failed()
            return
        self._agentos_ctx = ctx
    while True:
        try:
            item = self._work_queue.get_nowait()
        except Exception:
            return
        if item is not None:
            item.run(ctx)

def patch_executor(module):
    module.ThreadPoolExecutor._adjust_thread_count = _adjust_thread_count
`;
