//===- Z3Reaper.cpp - free Z3 contexts off the engines' clock -------------===//
#include "smt/Z3Reaper.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace crace {

namespace {

class Reaper {
public:
  ~Reaper() {
    {
      std::lock_guard<std::mutex> G(M);
      Done = true;
    }
    CV.notify_all();
    if (Thread.joinable())
      Thread.join();
  }
  void add(std::unique_ptr<z3::context> Ctx) {
    std::lock_guard<std::mutex> G(M);
    Queue.push_back(std::move(Ctx));
    if (!Thread.joinable())
      Thread = std::thread([this] { loop(); });
    CV.notify_all();
  }

private:
  void loop() {
    std::unique_lock<std::mutex> L(M);
    for (;;) {
      CV.wait(L, [&] { return Done || !Queue.empty(); });
      if (Queue.empty())
        return; // Done, nothing pending
      std::unique_ptr<z3::context> Ctx = std::move(Queue.front());
      Queue.pop_front();
      L.unlock();
      Ctx.reset();
      L.lock();
    }
  }
  std::mutex M;
  std::condition_variable CV;
  std::deque<std::unique_ptr<z3::context>> Queue;
  bool Done = false;
  std::thread Thread;
};

Reaper &reaper() {
  static Reaper R;
  return R;
}

} // namespace

void deleteInBackground(std::unique_ptr<z3::context> Ctx) {
  if (Ctx)
    reaper().add(std::move(Ctx));
}

} // namespace crace
