pub fn main(_a: &[String]) -> i32 {
    0
}
