/// A stack for one parse, in memory the parse lends it (on the call stack, so that a typical
/// formula allocates nothing for it) and moved to the heap when a formula needs more. Elements are
/// moved in and out: pushing or taking a node costs no reference count and no uniqueness check,
/// as an array's would.
///
/// The owner calls ``release()`` once, before the lent memory goes away. The stack is used in
/// place (a copy would share the memory), as a stored property of the parse's state.
struct ParseStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var onHeap = false
    /// The number of elements.
    private(set) var count = 0

    /// A stack in `memory`, which must outlive it (up to ``release()``).
    init(memory: UnsafeMutableBufferPointer<Element>) {
        base = memory.baseAddress!
        capacity = memory.count
    }

    var isEmpty: Bool { count == 0 }

    /// Pushes `element`.
    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Removes and returns the top element; the stack must not be empty.
    @inline(__always)
    mutating func pop() -> Element {
        precondition(count > 0)
        count -= 1
        return (base + count).move()
    }

    /// Removes and returns the top element, or nil when the stack is empty.
    @inline(__always)
    mutating func popIfAny() -> Element? {
        count == 0 ? nil : pop()
    }

    /// Pushes `elements` so that the first is on top.
    mutating func pushReversed(_ elements: [Element]) {
        for element in elements.reversed() { push(element) }
    }

    /// The elements from `start` up, in order, moved into an array; the stack keeps those below.
    mutating func take(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count)
        let n = count - start
        let elements = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: base + start, count: n)
            initialized = n
        }
        count = start
        return elements
    }

    /// Destroys the elements left and frees the heap memory, if the stack moved there.
    mutating func release() {
        base.deinitialize(count: count)
        count = 0
        if onHeap { base.deallocate() }
        capacity = 0
        onHeap = false
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: max(2 * capacity, 16))
        larger.moveInitialize(from: base, count: count)
        if onHeap { base.deallocate() }
        base = larger
        capacity = max(2 * capacity, 16)
        onHeap = true
    }
}
