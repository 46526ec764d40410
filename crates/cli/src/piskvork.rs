pub fn run(_a: &[String]) -> Result<String, String> { Err("todo".into()) }
