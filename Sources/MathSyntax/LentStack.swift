import Foundation

extension UnsafeMutablePointer {
    /// An address aligned for `Pointee` that is never read: the start of a buffer of no elements (an
    /// empty stack, a list of no records), which needs an address but holds nothing.
    @inlinable package static var neverRead: UnsafeMutablePointer {
        UnsafeMutablePointer(bitPattern: MemoryLayout<Pointee>.alignment)!
    }
}

/// A stack for one run of a pass (a parse, an analysis), in memory the run lends it — on the call
/// stack, so that a typical formula allocates nothing for it — and moved to the heap when the run
/// needs more. Elements are moved in and out: pushing or taking one costs no reference count and no
/// uniqueness check, as an array's would.
///
/// The owner calls ``release()`` once, before the lent memory goes away. The stack is used in place
/// (a copy would share the memory), as a stored property of the run's state. Memory comes from
/// ``withLentMemory(_:)`` (or any buffer that outlives the stack); a stack made with ``init()``
/// starts on the heap.
@usableFromInline
package struct LentStack<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int
    @usableFromInline var onHeap: Bool
    @usableFromInline var storedCount = 0

    /// A stack in `memory`, which must outlive it (up to ``release()``).
    @inlinable
    package init(memory: UnsafeMutableBufferPointer<Element>) {
        // Without memory: an address never read (the capacity is 0) and nothing to free.
        base = memory.baseAddress ?? .neverRead
        capacity = memory.count
        onHeap = false
    }

    /// An empty stack on the heap (it allocates on the first push).
    @inlinable
    package init() {
        self.init(memory: UnsafeMutableBufferPointer(start: nil, count: 0))
    }

    /// The number of elements.
    @inlinable package var count: Int { storedCount }

    @inlinable package var isEmpty: Bool { storedCount == 0 }

    /// The first element's address (valid until the stack next grows or is released).
    @inlinable package var start: UnsafeMutablePointer<Element> { base }

    /// Element `i` (below ``count``), read and written in place.
    @inlinable
    package subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: storedCount), "index out of range")
            return UnsafePointer(base + i)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: storedCount), "index out of range")
            return base + i
        }
    }

    /// The top element, if any.
    @inlinable package var last: Element? { storedCount == 0 ? nil : base[storedCount - 1] }

    /// Pushes `element`.
    @inlinable @inline(__always)
    package mutating func push(_ element: consuming Element) {
        if storedCount == capacity { grow(toHold: storedCount &+ 1) }
        (base + storedCount).initialize(to: element)
        storedCount &+= 1
    }

    /// Removes and returns the top element; the stack must not be empty.
    @inlinable @inline(__always) @discardableResult
    package mutating func pop() -> Element {
        precondition(storedCount > 0)
        storedCount -= 1
        return (base + storedCount).move()
    }

    /// Removes and returns the top element, or nil when the stack is empty.
    @inlinable @inline(__always)
    package mutating func popIfAny() -> Element? {
        storedCount == 0 ? nil : pop()
    }

    /// Removes the elements from index `n` on.
    @inlinable @inline(__always)
    package mutating func truncate(to n: Int) {
        precondition(n >= 0 && n <= storedCount)
        (base + n).deinitialize(count: storedCount - n)
        storedCount = n
    }

    /// Pushes `elements` so that the first is on top.
    @inlinable
    package mutating func pushReversed(_ elements: [Element]) {
        for element in elements.reversed() { push(element) }
    }

    /// Moves the elements of `other` from `start` up onto this stack, in order; `other` keeps those below.
    @inlinable @inline(__always)
    package mutating func push(movingFrom other: inout LentStack<Element>, from start: Int) {
        let n = other.storedCount - start
        precondition(n >= 0)
        if storedCount + n > capacity { grow(toHold: storedCount + n) }
        // Element by element: for the few entries moved at a time, cheaper than a bulk move.
        var i = 0
        while i < n {
            (base + storedCount + i).initialize(to: (other.base + start + i).move())
            i += 1
        }
        storedCount += n
        other.storedCount = start
    }

    /// Makes room for `n` more elements and returns the address of the first; the caller initialises
    /// all `n` (the count already includes them).
    @inlinable @inline(__always)
    package mutating func extend(by n: Int) -> UnsafeMutablePointer<Element> {
        if storedCount &+ n > capacity { grow(toHold: storedCount &+ n) }
        let slots = base + storedCount
        storedCount &+= n
        return slots
    }

    /// The elements from `start` up, in order, moved into an array; the stack keeps those below.
    ///
    /// (Two or three elements, the most common counts, are moved into an array literal: the storage of
    /// `init(unsafeUninitializedCapacity:initializingWith:)` is made by the generic buffer initialiser,
    /// ~60 instructions more than a literal's, `MathAloudBench stages` under callgrind, session 36.)
    @inlinable
    package mutating func take(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= storedCount)
        let n = storedCount - start
        if n == 2 || n == 3 {
            let first = (base + start).move(), second = (base + start + 1).move()
            storedCount = start
            if n == 2 { return [first, second] }
            return [first, second, (base + start + 2).move()]
        }
        let elements = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: base + start, count: n)
            initialized = n
        }
        storedCount = start
        return elements
    }

    /// All the elements, moved into an array of their number's capacity; the stack is left empty.
    ///
    /// (Plain records are copied by `Array(_:)` of a buffer, the cheapest way to make an array: one
    /// made by `init(unsafeUninitializedCapacity:initializingWith:)` looks up its storage's type
    /// metadata on every call for elements that are not classes, several hundred instructions.
    /// Other elements are moved one by one, without reference counting.)
    @inlinable
    package mutating func takeAll() -> [Element] {
        if storedCount == 0 { return [] }
        if _isPOD(Element.self) {
            let array = Array(UnsafeBufferPointer(start: base, count: storedCount))
            storedCount = 0
            return array
        }
        var array: [Element] = []
        array.reserveCapacity(storedCount)
        for i in 0 ..< storedCount { array.append((base + i).move()) }
        storedCount = 0
        return array
    }

    /// Makes room for `n` elements in all, so that pushing up to that many does not grow the stack.
    @inlinable
    package mutating func reserve(_ n: Int) {
        if n > capacity { grow(toHold: n) }
    }

    /// Destroys the elements left and frees the heap memory, if the stack moved there.
    ///
    /// (A run leaves its stacks empty, and destroying no elements of a type with references still
    /// called `swift_arrayDestroy`: ~21 k such calls in 2,000 speaks, the parser's four stacks and the
    /// tree builder's, `MathAloudBench stages` under callgrind, session 42.)
    @inlinable
    package mutating func release() {
        if storedCount > 0 { base.deinitialize(count: storedCount) }
        storedCount = 0
        if onHeap { free(base) }
        capacity = 0
        onHeap = false
    }

    @inlinable @inline(never)
    mutating func grow(toHold n: Int) {
        let newCapacity = max(2 * capacity, 16, n)
        // From malloc: UnsafeMutablePointer.allocate takes the runtime's aligned path
        // (posix_memalign), several times slower for these sizes; malloc's 16-byte alignment suits
        // every element type kept here.
        precondition(MemoryLayout<Element>.alignment <= 16)
        guard let raw = malloc(newCapacity * MemoryLayout<Element>.stride) else { fatalError("out of memory") }
        let larger = raw.bindMemory(to: Element.self, capacity: newCapacity)
        larger.moveInitialize(from: base, count: storedCount)
        if onHeap { free(base) }
        base = larger
        capacity = newCapacity
        onHeap = true
    }
}

/// Memory lent by a call for the stacks of one run: ``blockCount`` blocks of ``blockSize`` bytes on
/// the call stack, handed out in order by ``stack(of:capacity:)`` (a piece never spans two blocks:
/// one that does not fit in what is left of a block starts the next). A stack whose piece does not
/// fit starts on the heap instead.
@usableFromInline
package struct LentMemory {
    /// The unused part of the block being handed out.
    @usableFromInline var next: UnsafeMutableRawPointer?
    @usableFromInline var end: UnsafeMutableRawPointer?
    /// The blocks not begun yet.
    @usableFromInline var spare: (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)

    /// The size of one block: the largest `withUnsafeTemporaryAllocation` keeps on the call stack
    /// without asking the platform (on Linux, larger requests go to the heap).
    @usableFromInline package static let blockSize = 1024
    /// The number of blocks one ``withLentMemory(_:)`` lends.
    package static let blockCount = 4

    @inlinable
    init(_ blocks: (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)) {
        next = blocks.0
        end = blocks.0.map { $0 + LentMemory.blockSize }
        spare = (blocks.1, blocks.2, blocks.3)
    }

    /// A stack in the next `capacity` elements' worth of this memory, or an empty stack on the heap
    /// when they fit in no block.
    @inlinable @inline(__always)
    package mutating func stack<Element>(of type: Element.Type, capacity: Int) -> LentStack<Element> {
        let bytes = capacity * MemoryLayout<Element>.stride
        let alignment = MemoryLayout<Element>.alignment
        guard bytes > 0, bytes <= LentMemory.blockSize, var start = next, var limit = end else { return LentStack() }
        start = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: start) + alignment - 1) & -alignment)!
        if start + bytes > limit {
            // The next block (blocks are aligned for every element type).
            guard let block = spare.0 else { return LentStack() }
            spare = (spare.1, spare.2, nil)
            start = block
            limit = block + LentMemory.blockSize
            end = limit
        }
        next = start + bytes
        let typed = start.bindMemory(to: Element.self, capacity: capacity)
        return LentStack(memory: UnsafeMutableBufferPointer(start: typed, count: capacity))
    }
}

/// Runs `body` with ``LentMemory/blockCount`` blocks of ``LentMemory/blockSize`` bytes on the call
/// stack (uninitialised, valid for the call only).
@inlinable
package func withLentMemory<R>(_ body: (inout LentMemory) -> R) -> R {
    // One allocation per block: each stays at the size the call stack takes without a check.
    withUnsafeTemporaryAllocation(byteCount: LentMemory.blockSize, alignment: 16) { m0 in
        withUnsafeTemporaryAllocation(byteCount: LentMemory.blockSize, alignment: 16) { m1 in
            withUnsafeTemporaryAllocation(byteCount: LentMemory.blockSize, alignment: 16) { m2 in
                withUnsafeTemporaryAllocation(byteCount: LentMemory.blockSize, alignment: 16) { m3 in
                    var memory = LentMemory((m0.baseAddress, m1.baseAddress, m2.baseAddress, m3.baseAddress))
                    return body(&memory)
                }
            }
        }
    }
}
