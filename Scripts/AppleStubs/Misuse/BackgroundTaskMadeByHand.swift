// Apple marks `BGTask`'s and `BGTaskScheduler`'s `init()` unavailable: tasks come from the
// scheduler's launch handler, the scheduler is `shared`.
import BackgroundTasks

func makeOne() -> BGTask {
    BGTask()
}
